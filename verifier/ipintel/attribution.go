package ipintel

// Attribution is the credit the installed data's licences require (each is
// CC BY 4.0): shown in the README and on every page that shows or uses the
// results (the dashboard footer). DB-IP asks web pages for a link back:
// AttributionHTML carries it.
const Attribution = "IP geolocation by DB-IP (db-ip.com), CC BY 4.0. " +
	"IP to ASN data by RouteViews (routeviews.org), the NRO (nro.net) and DB-IP, CC BY 4.0, compiled by ip-location-db. " +
	"US ZIP code centroids by GeoNames (geonames.org), CC BY 4.0."

// AttributionHTML is Attribution for HTML pages, with the links the
// licences ask for.
const AttributionHTML = `<a href="https://db-ip.com">IP Geolocation by DB-IP</a> (CC BY 4.0) · ` +
	`IP to ASN data by <a href="https://www.routeviews.org/">RouteViews</a>, <a href="https://www.nro.net/">NRO</a> and DB-IP (CC BY 4.0) · ` +
	`US ZIP centroids by <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)`
