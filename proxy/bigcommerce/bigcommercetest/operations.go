package bigcommercetest

import "strings"

// operation is one endpoint the double implements, spelt as BigCommerce's
// documents spell it: the path below /stores/{store_hash}/{version} and
// the operationId its handler is registered under.
type operation struct {
	version, method, path, id string
}

// operations route requests when the double runs without the documents
// (the local demo: BigCommerce publishes them without a licence to
// redistribute, so a clone does not carry them). With the documents, they
// route instead, and TestOperationsAgreeWithTheDocuments holds this table
// to them.
var operations = []operation{
	{"v3", "GET", "/carts/{cartId}", "getCart"},
	{"v3", "GET", "/carts/{cart_id}/metafields", "getCartMetafields"},
	{"v3", "POST", "/carts/{cart_id}/metafields", "createCartMetafield"},
	{"v3", "PUT", "/carts/{cart_id}/metafields/{metafield_id}", "updateCartMetafield"},
	{"v3", "DELETE", "/carts/{cart_id}/metafields/{metafield_id}", "deleteCartMetafield"},
	{"v3", "GET", "/customers/{customerId}/metafields", "getCustomersMetafields"},
	{"v3", "POST", "/customers/{customerId}/metafields", "createCustomerMetafields"},
	{"v3", "PUT", "/customers/{customerId}/metafields/{metafieldId}", "updateCustomerMetafield"},
	{"v3", "DELETE", "/customers/{customerId}/metafields/{metafieldId}", "deleteCustomerMetafieldsId"},
	{"v3", "GET", "/orders/{order_id}/metafields", "getOrderMetafields"},
	{"v3", "POST", "/orders/{order_id}/metafields", "createOrderMetafield"},
	{"v3", "PUT", "/orders/{order_id}/metafields/{metafield_id}", "updateOrderMetafield"},
	{"v3", "DELETE", "/orders/{order_id}/metafields/{metafield_id}", "deleteOrderMetafield"},
	{"v3", "GET", "/orders/metafields", "getOrdersMetafields"},
	{"v3", "GET", "/content/scripts", "getScripts"},
	{"v3", "POST", "/content/scripts", "createScript"},
	{"v3", "PUT", "/content/scripts/{uuid}", "updateScript"},
	{"v3", "DELETE", "/content/scripts/{uuid}", "deleteScript"},
	{"v3", "GET", "/hooks", "getWebhooks"},
	{"v3", "POST", "/hooks", "createWebhooks"},
	{"v3", "PUT", "/hooks/{webhook_id}", "updateWebhook"},
	{"v3", "DELETE", "/hooks/{webhook_id}", "deleteWebhook"},
	{"v2", "GET", "/orders", "getOrders"},
	{"v2", "GET", "/orders/{order_id}", "getOrder"},
	{"v2", "PUT", "/orders/{order_id}", "updateOrder"},
	{"v2", "GET", "/orders/{order_id}/shipping_addresses", "getOrderShippingAddresses"},
}

// matchOperation finds the operation for a request below
// /stores/{store_hash}/{version}, with its path parameters.
func matchOperation(version, method, path string) (operation, map[string]string, bool) {
	got := strings.Split(path, "/")
	for _, op := range operations {
		if op.version != version || op.method != method {
			continue
		}
		if params, ok := matchPath(strings.Split(op.path, "/"), got); ok {
			return op, params, true
		}
	}
	return operation{}, nil, false
}

// matchPath matches path segments against a template's, where a segment
// "{name}" takes any non-empty value.
func matchPath(template, got []string) (map[string]string, bool) {
	if len(template) != len(got) {
		return nil, false
	}
	params := map[string]string{}
	for i, seg := range template {
		name, isParam := strings.CutPrefix(seg, "{")
		switch {
		case isParam && got[i] != "":
			params[strings.TrimSuffix(name, "}")] = got[i]
		case seg != got[i]:
			return nil, false
		}
	}
	return params, true
}
