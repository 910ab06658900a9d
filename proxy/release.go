package proxy

import (
	"fmt"

	"github.com/idgate/idgate/proxy/bigcommerce"
)

// ReleaseChoice is a status the merchant may release verified orders to:
// BigCommerce's status ID and name (Orders v2, "Get All Order Statuses"),
// and what it means in plain words.
type ReleaseChoice struct {
	ID    int
	Name  string
	Words string
}

// ReleaseChoices are the statuses a held order may move on to once it is
// verified or approved: the ones of an order still to be paid, packed,
// shipped or picked up. The rest of BigCommerce's statuses say the order is
// done, undone or disputed (Shipped, Completed, Refunded, Cancelled,
// Declined, Disputed...), or not placed yet (Incomplete, Pending), which
// a verification does not decide.
var ReleaseChoices = []ReleaseChoice{
	{StatusAwaitingFulfillment, "Awaiting Fulfillment", "paid, ready to be packed"},
	{9, "Awaiting Shipment", "packed, waiting for the carrier"},
	{8, "Awaiting Pickup", "ready for the customer to collect"},
	{7, "Awaiting Payment", "waiting for the payment to be confirmed"},
}

// ReleaseAsBefore (0) releases an order to the status the guard held it
// from: the default.
const ReleaseAsBefore = 0

// validReleaseStatus reports whether id is ReleaseAsBefore or one of the
// ReleaseChoices.
func validReleaseStatus(id int) error {
	if id == ReleaseAsBefore {
		return nil
	}
	for _, c := range ReleaseChoices {
		if c.ID == id {
			return nil
		}
	}
	return fmt.Errorf("release status %d is not one verified orders may move on to", id)
}

// releaseTo is where the store's held order goes when it is let through
// (verified after the order, or approved by hand): the merchant's chosen
// status, else the status the guard held it from, else Awaiting
// Fulfillment when that was not recorded.
func (s *Store) releaseTo(heldFrom int) int {
	switch {
	case s.ReleaseStatus != ReleaseAsBefore:
		return s.ReleaseStatus
	case heldFrom == 0 || heldFrom == bigcommerce.StatusManualVerificationRequired:
		return StatusAwaitingFulfillment
	}
	return heldFrom
}
