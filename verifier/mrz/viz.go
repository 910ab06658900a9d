package mrz

import (
	"math"
	"strings"

	"github.com/idgate/idgate/verifier/license"
)

// vizField is where a caption's value goes: a field of license.Printed, or
// vizOther for a caption whose value is not compared (nationality, sex,
// place of birth, issue date, authority).
type vizField int

const (
	vizNone vizField = iota
	vizNumber
	vizLast
	vizFirst
	vizDOB
	vizExpiry
	vizOther
)

// vizCaptions are the words of the visual inspection zone's captions
// (Doc 9303 Part 4, zone II, and Part 5 for the front of an ID card: the
// issuer's language and English or French, "Surname / Nom"), folded to
// capitals without diacritics (license.FoldLatin). A line holding one (or
// a numberNoun beside its number word) is a caption; the first such word
// on it decides which. Besides English and French, the captions data
// pages and cards print in German, Spanish, Italian, Dutch and Portuguese,
// whose cards often print their own language alone (a Spanish card's
// "APELLIDOS", "NOMBRE", "VALIDEZ"). Words of a field that is not compared
// are listed too, so that "Lugar de nacimiento" is a place, not a birth
// date, and "Geburtsname" not the surname. A card number that is not the
// zone's document number is never a number caption: Spain's "DNI" is the
// holder's personal number, the zone's is the card's "NÚM SOPORT"; nor is
// a word that also captions another date ("Valid from" is an issue date).
var vizCaptions = map[string]vizField{
	// English and French.
	"PASSPORT": vizNumber, "PASSEPORT": vizNumber,
	"SURNAME": vizLast, "NOM": vizLast,
	"GIVEN": vizFirst, "FIRST": vizFirst, "PRENOMS": vizFirst, "PRENOM": vizFirst,
	"BIRTH": vizDOB, "NAISSANCE": vizDOB,
	"EXPIRY": vizExpiry, "EXPIRATION": vizExpiry, "EXPIRES": vizExpiry,
	"NATIONALITY": vizOther, "NATIONALITE": vizOther, "SEX": vizOther, "SEXE": vizOther, "ISSUE": vizOther,
	"DELIVRANCE": vizOther, "AUTHORITY": vizOther, "AUTORITE": vizOther, "PLACE": vizOther, "LIEU": vizOther,
	"TYPE": vizOther, "CODE": vizOther, "HEIGHT": vizOther, "TAILLE": vizOther,
	// German.
	"REISEPASS": vizNumber, "PASSNR": vizNumber, "AUSWEISNUMMER": vizNumber, "DOKUMENTENNUMMER": vizNumber,
	"NAME": vizLast, "FAMILIENNAME": vizLast, "NACHNAME": vizLast, "VORNAMEN": vizFirst, "VORNAME": vizFirst,
	// "Gültig bis" (valid until): the English model read the 1.6 mm
	// caption's "Gültig" as "Gilltig" (TestIDCardFrontVIZLanguages), so
	// "bis" names it too.
	"GEBURTSDATUM": vizDOB, "GEBURTSTAG": vizDOB, "GULTIG": vizExpiry, "BIS": vizExpiry, "ABLAUFDATUM": vizExpiry,
	"GEBURTSNAME": vizOther, "GEBURTSORT": vizOther, "STAATSANGEHORIGKEIT": vizOther, "GESCHLECHT": vizOther,
	"AUSSTELLUNGSDATUM": vizOther, "BEHORDE": vizOther, "GROSSE": vizOther, "TYP": vizOther,
	// Spanish.
	"PASAPORTE": vizNumber, "SOPORT": vizNumber, "SOPORTE": vizNumber,
	"APELLIDOS": vizLast, "APELLIDO": vizLast, "NOMBRE": vizFirst, "NOMBRES": vizFirst,
	"NACIMIENTO": vizDOB, "CADUCIDAD": vizExpiry, "VALIDEZ": vizExpiry,
	"LUGAR": vizOther, "NACIONALIDAD": vizOther, "SEXO": vizOther, "EXPEDICION": vizOther, "AUTORIDAD": vizOther,
	"ALTURA": vizOther, "TIPO": vizOther,
	// Italian.
	"PASSAPORTO": vizNumber, "COGNOME": vizLast, "NOME": vizFirst, "NOMI": vizFirst,
	"NASCITA": vizDOB, "SCADENZA": vizExpiry,
	"LUOGO": vizOther, "CITTADINANZA": vizOther, "NAZIONALITA": vizOther, "SESSO": vizOther, "RILASCIO": vizOther,
	"AUTORITA": vizOther, "STATURA": vizOther,
	// Dutch.
	"PASPOORTNUMMER": vizNumber, "DOCUMENTNUMMER": vizNumber,
	"NAAM": vizLast, "ACHTERNAAM": vizLast, "VOORNAMEN": vizFirst, "VOORNAAM": vizFirst,
	"GEBOORTEDATUM": vizDOB, "GELDIG": vizExpiry, "VERVALDATUM": vizExpiry,
	"GEBOORTEPLAATS": vizOther, "NATIONALITEIT": vizOther, "GESLACHT": vizOther, "AFGIFTE": vizOther,
	"AUTORITEIT": vizOther, "LENGTE": vizOther, "SOORT": vizOther,
	// Portuguese.
	"PASSAPORTE": vizNumber, "APELIDOS": vizLast, "APELIDO": vizLast, "SOBRENOME": vizLast, "NOMES": vizFirst,
	"NASCIMENTO": vizDOB, "VALIDADE": vizExpiry,
	"LOCAL": vizOther, "NACIONALIDADE": vizOther, "EMISSAO": vizOther, "AUTORIDADE": vizOther,
}

// ReadVIZ splits the words OCR read in a data page's visual inspection
// zone into the printed fields front_barcode_match compares: a caption
// line names the field whose value is the line under it (unless that line
// is a caption too); the first value of each field wins; a field's
// confidence is its lowest word's. A caption OCR did not read leaves its
// field empty (unreadable), never another field's value.
func ReadVIZ(words []license.Word) license.Printed {
	if len(words) > license.MaxFrontWords {
		words = words[:license.MaxFrontWords]
	}
	var lines [][]license.Word
	for i, w := range words {
		if i == 0 || w.Line != words[i-1].Line {
			lines = append(lines, nil)
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], w)
	}
	var p license.Printed
	pending := vizNone
	for _, line := range lines {
		if f := caption(line); f != vizNone {
			pending = f
			continue
		}
		if slot := printedSlot(&p, pending); slot != nil && slot.Text == "" {
			r := license.Read{Conf: math.Inf(1)}
			var text []string
			for _, w := range line {
				text = append(text, w.Text)
				r.Chars = append(r.Chars, w.Chars...)
				r.Conf = min(r.Conf, w.Conf)
			}
			r.Text = strings.Join(text, " ")
			*slot = r
		}
		pending = vizNone
	}
	return p
}

// numberNouns are the words that name a card's number caption only with
// a number word beside them ("Card No.", "Document number", "N.º
// documento"): alone they are also the card's title ("IDENTITY CARD"),
// whose line under it is no number.
var numberNouns = map[string]bool{"CARD": true, "DOCUMENT": true, "DOCUMENTO": true, "CARTE": true, "CARTA": true, "TARJETA": true}

// numberWords are the number words beside a numberNoun ("N.º" folds to N).
var numberWords = map[string]bool{"NO": true, "NUMBER": true, "NR": true, "NUM": true, "N": true, "NUMERO": true, "NUMMER": true}

// caption is the field a line captions, vizNone when it is no caption.
func caption(line []license.Word) vizField {
	toks := make([]string, len(line))
	for i, w := range line {
		toks[i] = strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, license.FoldLatin(w.Text))
	}
	for i, tok := range toks {
		if numberNouns[tok] && (i+1 < len(toks) && numberWords[toks[i+1]] || i > 0 && numberWords[toks[i-1]]) {
			return vizNumber
		}
		if f, ok := vizCaptions[tok]; ok {
			return f
		}
	}
	return vizNone
}

func printedSlot(p *license.Printed, f vizField) *license.Read {
	switch f {
	case vizNumber:
		return &p.DocumentNumber
	case vizLast:
		return &p.LastName
	case vizFirst:
		return &p.FirstName
	case vizDOB:
		return &p.DOB
	case vizExpiry:
		return &p.ExpiryDate
	}
	return nil
}
