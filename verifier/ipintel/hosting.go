package ipintel

// HostingASNs are hosting and cloud providers' autonomous systems: a
// connection from one of them is a server, a VPN or relay exit, or a remote
// desktop, rather than the end user's own home or mobile line. The list is
// curated by hand and kept short: large providers whose address space is
// rented to anyone (cloud, VPS, dedicated servers), plus hosts that commercial
// VPN services are known to run their exits from. Consumer ISPs and mobile
// carriers are never listed. Two entries also carry other traffic and are
// listed for their larger share: Microsoft's AS8075 (Azure, and Microsoft's
// own offices) and Cloudflare's AS13335 (its WARP VPN and relays such as
// iCloud Private Relay egress there, which are proxies too). Each entry's name is
// the organisation the ASN data gives for it (hosting_test.go checks every
// entry against the installed data).
//
// Adding an entry: the ASN must be one that sells servers to the public; cite
// the provider's name as the ASN data spells it; keep the table sorted by ASN.
var HostingASNs = map[uint32]string{
	8075:   "Microsoft Azure",
	8100:   "QuadraNet",
	8560:   "IONOS",
	9009:   "M247",
	12876:  "Scaleway",
	13335:  "Cloudflare",
	14061:  "DigitalOcean",
	14618:  "Amazon Web Services",
	16276:  "OVHcloud",
	16509:  "Amazon Web Services",
	20473:  "Vultr (The Constant Company)",
	24940:  "Hetzner",
	26496:  "GoDaddy",
	28753:  "Leaseweb",
	30633:  "Leaseweb",
	31898:  "Oracle Cloud",
	36351:  "IBM Cloud",
	36352:  "HostPapa (ColoCrossing)",
	37963:  "Alibaba Cloud",
	40676:  "Psychz Networks",
	45102:  "Alibaba Cloud",
	46606:  "Unified Layer (Bluehost)",
	47583:  "Hostinger",
	51167:  "Contabo",
	53667:  "FranTech (BuyVM)",
	55286:  "B2 Net Solutions (ServerMania)",
	60068:  "Datacamp (CDN77)",
	60781:  "Leaseweb",
	63949:  "Akamai Connected Cloud (Linode)",
	132203: "Tencent Cloud",
	136787: "PacketHub",
	197540: "netcup",
	212238: "Datacamp (CDN77)",
	213230: "Hetzner",
	396982: "Google Cloud",
}
