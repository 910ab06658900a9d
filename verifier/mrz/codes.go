package mrz

import (
	"slices"
	"strings"
)

// iso3166 is ISO 3166-1's alpha-3 codes of countries and territories as
// assigned today: 249 codes (the count of the ISO 3166 code system FHIR
// publishes, urn:iso:std:iso:3166), without the codes withdrawn (ANT, SCG,
// YUG, ...) and those only reserved (ASC, TAA, ...). Doc 9303 Part 3, 5
// names these the codes of states and of nationality.
const iso3166 = `ABW AFG AGO AIA ALA ALB AND ARE ARG ARM ASM ATA ATF ATG AUS AUT AZE BDI BEL BEN
BES BFA BGD BGR BHR BHS BIH BLM BLR BLZ BMU BOL BRA BRB BRN BTN BVT BWA CAF CAN
CCK CHE CHL CHN CIV CMR COD COG COK COL COM CPV CRI CUB CUW CXR CYM CYP CZE DEU
DJI DMA DNK DOM DZA ECU EGY ERI ESH ESP EST ETH FIN FJI FLK FRA FRO FSM GAB GBR
GEO GGY GHA GIB GIN GLP GMB GNB GNQ GRC GRD GRL GTM GUF GUM GUY HKG HMD HND HRV
HTI HUN IDN IMN IND IOT IRL IRN IRQ ISL ISR ITA JAM JEY JOR JPN KAZ KEN KGZ KHM
KIR KNA KOR KWT LAO LBN LBR LBY LCA LIE LKA LSO LTU LUX LVA MAC MAF MAR MCO MDA
MDG MDV MEX MHL MKD MLI MLT MMR MNE MNG MNP MOZ MRT MSR MTQ MUS MWI MYS MYT NAM
NCL NER NFK NGA NIC NIU NLD NOR NPL NRU NZL OMN PAK PAN PCN PER PHL PLW PNG POL
PRI PRK PRT PRY PSE PYF QAT REU ROU RUS RWA SAU SDN SEN SGP SGS SHN SJM SLB SLE
SLV SMR SOM SPM SRB SSD STP SUR SVK SVN SWE SWZ SXM SYC SYR TCA TCD TGO THA TJK
TKL TKM TLS TON TTO TUN TUR TUV TWN TZA UGA UKR UMI URY USA UZB VAT VCT VEN VGB
VIR VNM VUT WLF WSM YEM ZAF ZMB ZWE`

// icaoCodes are the codes Doc 9303 Part 3, 5 adds to ISO's: Germany's D
// (printed "D<<"); those ISO reserves for ICAO (EUE the European Union;
// GBD, GBN, GBO, GBP, GBS the classes of British nationality; UNO, UNA,
// UNK the United Nations, its agencies and its Kosovo mission); the other
// issuing organisations (XBA, XCC, XCE, XCO, XDC, XEC, XES, XIM, XMP, XOM,
// XPO); the stateless, refugees and unspecified (XXA, XXB, XXC, XXX); and
// UTO, Utopia, the standard's own examples' state (read, then refused as a
// specimen: specimen.go). RKS is not Doc 9303's: Kosovo's passports print
// it since 2008, and refusing them would refuse real documents.
const icaoCodes = `D EUE GBD GBN GBO GBP GBS UNO UNA UNK XBA XCC XCE XCO XDC XEC XES XIM XMP XOM XPO
XXA XXB XXC XXX UTO RKS`

// codes is every code an issuing state or a nationality may be, sorted.
var codes = func() []string {
	c := append(strings.Fields(iso3166), strings.Fields(icaoCodes)...)
	slices.Sort(c)
	return c
}()

// IsCode reports whether s (fillers trimmed: "D", not "D<<") is a code an
// issuing state or nationality may print. A zone's state and nationality
// carry no check digit: this is what tells a misread code ("NLO" for NLD,
// a print whose D reads as O) from a real one.
func IsCode(s string) bool {
	_, ok := slices.BinarySearch(codes, s)
	return ok
}

// Codes lists every code IsCode takes, sorted (a new slice).
func Codes() []string { return slices.Clone(codes) }
