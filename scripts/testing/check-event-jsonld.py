"""Reads a meetup page's HTML and checks its schema.org Event with a JSON-LD processor.

    scripts/test-python scripts/testing/check-event-jsonld.py PAGE.html

Every <script type="application/ld+json"> is read with Python's own HTML parser, then
expanded by PyLD, so terms are judged by the IRIs they expand to and not by how the page
spells them. The properties search engines need of an Event (name, startDate, location as a
Place with an address or coordinates) must be there, and the recommended ones are reported.
Prints the expanded event's values as JSON on success; exits 1 naming what is missing.
"""
import json
import sys
from html.parser import HTMLParser

from pyld import jsonld

SCHEMA = "http://schema.org/"

# The tests run without the network: schema.org's context is served from here, with the
# terms this check reads as schema.org's published context defines them (an @vocab, and the
# properties whose values are IRIs).
SCHEMA_CONTEXT = {
    "@context": {
        "@vocab": SCHEMA,
        "schema": SCHEMA,
        "url": {"@id": "schema:url", "@type": "@id"},
        "image": {"@id": "schema:image", "@type": "@id"},
        "eventStatus": {"@id": "schema:eventStatus", "@type": "@id"},
        "eventAttendanceMode": {"@id": "schema:eventAttendanceMode", "@type": "@id"},
        "availability": {"@id": "schema:availability", "@type": "@id"},
    }
}


def load_document(url, options=None):
    if url.rstrip("/") in ("https://schema.org", "http://schema.org"):
        return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url, "document": SCHEMA_CONTEXT}
    raise jsonld.JsonLdError(f"no network in the tests: {url}", "jsonld.LoadDocumentError", code="loading document failed")


class ScriptBlocks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.blocks, self._inside = [], False

    def handle_starttag(self, tag, attrs):
        if tag == "script" and dict(attrs).get("type") == "application/ld+json":
            self._inside = True
            self.blocks.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.blocks[-1] += data


def values(node, name):
    return node.get(SCHEMA + name, [])


def first(node, name):
    found = values(node, name)
    if not found:
        return None
    value = found[0]
    return value.get("@value", value.get("@id", value))


def main():
    parser = ScriptBlocks()
    parser.feed(open(sys.argv[1], encoding="utf-8").read())
    if not parser.blocks:
        sys.exit("no <script type=\"application/ld+json\"> on the page")
    expanded = []
    for block in parser.blocks:
        expanded += jsonld.expand(json.loads(block), {"documentLoader": load_document})
    events = [node for node in expanded if SCHEMA + "Event" in node.get("@type", [])]
    if len(events) != 1:
        sys.exit(f"expected one schema.org Event, found {len(events)} among {[n.get('@type') for n in expanded]}")
    event = events[0]
    missing = [name for name in ("name", "startDate", "location") if not values(event, name)]
    if missing:
        sys.exit(f"the Event lacks the required {', '.join(missing)}")
    place = values(event, "location")[0]
    if SCHEMA + "Place" not in place.get("@type", []):
        sys.exit(f"the Event's location is not a Place: {place.get('@type')}")
    if not values(place, "address") and not values(place, "geo"):
        sys.exit("the Place has neither an address nor coordinates")
    geo = values(place, "geo")[0] if values(place, "geo") else {}
    offer = values(event, "offers")[0] if values(event, "offers") else {}
    organizer = values(event, "organizer")[0] if values(event, "organizer") else {}
    print(json.dumps({
        "name": first(event, "name"),
        "start_date": first(event, "startDate"),
        "end_date": first(event, "endDate"),
        "description": first(event, "description"),
        "event_status": first(event, "eventStatus"),
        "attendance_mode": first(event, "eventAttendanceMode"),
        "image": first(event, "image"),
        "url": first(event, "url"),
        "place_name": first(place, "name"),
        "address": first(place, "address"),
        "latitude": first(geo, "latitude"),
        "longitude": first(geo, "longitude"),
        "availability": first(offer, "availability"),
        "organizer_type": organizer.get("@type", [None])[0],
        "organizer_name": first(organizer, "name"),
        "recommended_missing": [name for name in ("description", "endDate", "eventStatus", "eventAttendanceMode", "image", "offers", "organizer")
                                if not values(event, name)],
    }, ensure_ascii=False))


main()
