"""Parses an iCalendar file with the `icalendar` package, as a calendar app would.

Reads the .ics bytes on standard input. Checks the framing first (every line ends in CRLF
and is at most 75 octets; a continuation starts with one space). Prints JSON:
{"name": X-WR-CALNAME, "timezones": [TZID…], "events": [{uid, summary, description,
location, status, sequence, tzid, start, end, start_offset, end_offset, alarm_seconds}]},
times as Unix seconds with the UTC offset the zone gives them. Exits 1 with the problem
when the framing is wrong or the parser refuses the file.
"""
import json
import sys

from icalendar import Calendar

data = sys.stdin.buffer.read()
if not data.endswith(b"\r\n"):
    print("the file does not end with CRLF")
    sys.exit(1)
for number, line in enumerate(data[:-2].split(b"\r\n"), start=1):
    if b"\n" in line or b"\r" in line:
        print(f"line {number} has a bare line break")
        sys.exit(1)
    if len(line) > 75:
        print(f"line {number} is {len(line)} octets long: {line[:40]!r}…")
        sys.exit(1)
    line.decode("utf-8")  # a fold must not split a character

try:
    calendar = Calendar.from_ical(data)
except Exception as error:
    print(f"icalendar refused the file: {error}")
    sys.exit(1)


def seconds(value):
    return int(value.timestamp()), int(value.utcoffset().total_seconds())


events = []
for event in calendar.walk("VEVENT"):
    start, end = event.decoded("DTSTART"), event.decoded("DTEND")
    alarms = [alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")]
    events.append({
        "uid": str(event.get("UID")),
        "summary": str(event.get("SUMMARY")),
        "description": str(event.get("DESCRIPTION", "")),
        "location": str(event.get("LOCATION", "")),
        "status": str(event.get("STATUS")),
        "sequence": int(event.get("SEQUENCE")),
        "tzid": event["DTSTART"].params.get("TZID"),
        "start": seconds(start)[0], "start_offset": seconds(start)[1],
        "end": seconds(end)[0], "end_offset": seconds(end)[1],
        "alarm_seconds": [int(trigger.total_seconds()) for trigger in alarms],
    })
print(json.dumps({"name": str(calendar.get("X-WR-CALNAME")),
                  "timezones": [str(tz.get("TZID")) for tz in calendar.walk("VTIMEZONE")],
                  "events": events}))
