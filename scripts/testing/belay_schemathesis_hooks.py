"""Schemathesis hooks for Belay's contract run (scripts/testing/contract-fuzz.py).

`schema_valid_request_accepted` is Schemathesis's own positive-data check (a request the
document allows must not be refused as malformed: no 400 or 422), reporting the same
"Schema-valid request rejected" failure, with one difference: a refusal no OpenAPI schema
can state is let through when, and only when, it is listed below with the operation and the
member it names. Each of these depends on two members together or on what the club's data
holds, never on one value's shape; everything a schema can state is stated in /openapi.json
and is not listed.
"""
import schemathesis
from schemathesis.openapi.checks import RejectedPositiveData

ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]

# (operation, the problem's `field`, `parameter` or `header`): why no schema states it.
NOT_STATABLE = {
    # A meetup ends after it starts, and a new one does not end in the past.
    ("POST /v1/meetups", "ends_at"): "compares two members",
    ("POST /v1/meetups", "starts_at"): "compares with the clock",
    ("POST /v1/meetups/series", "ends_at"): "compares two members",
    ("POST /v1/meetups/series", "starts_at"): "compares with the clock",
    ("POST /v1/meetups/series", "until"): "compares two members",
    ("PATCH /v1/meetups/{id}", "ends_at"): "compares with the stored start",
    ("PATCH /v1/meetups/{id}", "starts_at"): "compares with the stored end",
    ("PATCH /v1/meetups/{id}/following", "ends_at"): "compares with the stored start",
    ("PATCH /v1/meetups/{id}/following", "starts_at"): "compares with the stored end",
    ("PATCH /v1/meetups/{id}/following", "time_zone"): "a series moves its zone one meetup at a time",
    ("POST /v1/meetups/{id}/check-in", "at"): "must fall in the meetup's check-in window",
    ("POST /v1/meetups", "record_past"): "only for a meetup that already ended (compares with the clock)",
    # A test event goes only to an endpoint that is enabled now.
    ("POST /v1/webhooks/{id}/test", "id"): "the endpoint's stored state",
    # An IANA zone is one of the tz database's names, which change with tzdata releases.
    ("POST /v1/meetups", "time_zone"): "the tz database's names",
    ("POST /v1/meetups/series", "time_zone"): "the tz database's names",
    ("PATCH /v1/meetups/{id}", "time_zone"): "the tz database's names",
    # Who hosts a meetup is the club's data: its host cannot also be its co-host.
    ("POST /v1/meetups/{id}/cohosts", "user_id"): "compares with the meetup's stored host",
    # Reserved handles are compared after NFKC and case folding (`ADMIN`, `Ａdmin`), which no
    # schema keyword does; the document lists them in the handle's description.
    ("PATCH /v1/me", "handle"): "reserved words, compared after case folding",
    # A cursor is one the same list gave out (it names that list and a position in it).
    ("GET /v1/meetups", "cursor"): "given out by the server",
    ("GET /v1/me/rewards", "cursor"): "given out by the server",
    ("GET /v1/meetups/{id}/attendees", "cursor"): "given out by the server",
    ("GET /v1/meetups/{id}/waitlist", "cursor"): "given out by the server",
    ("GET /v1/webhooks/{id}/deliveries", "cursor"): "given out by the server",
    ("GET /v1/meetups/{id}/no-shows", "cursor"): "given out by the server",
    ("GET /v1/stats/shares", "cursor"): "given out by the server, and not with `by` (summed statistics come in one page)",
    ("POST /v1/meetups", "place_name"): "required unless gym_id is given (two members)",
    ("GET /v1/gyms", "cursor"): "given out by the server",
    ("GET /v1/gyms/{id}/problems", "cursor"): "given out by the server",
    ("GET /v1/me/logbook", "cursor"): "given out by the server",
    ("GET /v1/members/{id}/logbook", "cursor"): "given out by the server",
    # The logbook's grades: whether a text is a grade depends on the scale or gym it is read
    # against (`6c` is a Font grade, not a V grade; a level is one of the gym's own colours).
    ("GET /v1/gyms", "near"): "each number's range inside one text",
    ("POST /v1/gyms", "time_zone"): "the tz database's names",
    ("PATCH /v1/gyms/{id}", "time_zone"): "the tz database's names",
    ("POST /v1/gyms", "names"): "language tags as keys",
    ("PATCH /v1/gyms/{id}", "names"): "language tags as keys",
    ("POST /v1/gyms", "boulder_levels"): "needed when `boulder_grading` is circuit (two members), grades read in the level's scale",
    ("POST /v1/gyms", "route_levels"): "needed when `route_grading` is circuit (two members), grades read in the level's scale",
    ("PATCH /v1/gyms/{id}", "boulder_levels"): "needed when the gym grades boulders by circuit, grades read in the level's scale",
    ("PATCH /v1/gyms/{id}", "route_levels"): "needed when the gym grades routes by circuit, grades read in the level's scale",
    ("GET /v1/gyms/{id}/problems", "grade"): "a grade or level of the gym's",
    ("POST /v1/gyms/{id}/problems", "grade"): "a grade or level of the gym's",
    ("POST /v1/gyms/{id}/problems", "expected_removal_on"): "compares with set_on",
    ("POST /v1/gyms/{id}/problem-sets", "csv"): "rows of a file, each read against the gym",
    ("POST /v1/me/ticks", "problem_id"): "one of problem_id, gym_id or an outdoor grade (several members)",
    ("POST /v1/me/ticks", "level"): "a level of the gym's circuit",
    ("POST /v1/me/ticks", "grade"): "a grade of the scale or gym it names",
    ("POST /v1/me/ticks", "grade_scale"): "goes with an outdoor grade, on the discipline's axis (two members)",
    ("POST /v1/me/ticks", "attempts"): "a flash has one attempt, a send more (two members)",
    ("POST /v1/me/ticks", "climbed_at"): "compares with the clock",
    ("POST /v1/me/ticks", "felt_grade"): "a grade of the tick's axis",
    ("POST /v1/me/ticks", "discipline"): "the problem's own discipline",
    ("POST /v1/me/logbook/imports", "csv"): "rows of another logbook's export",
    ("POST /v1/me/ticks:batch", "ticks"): "every client_tick_id once in a batch of 1 to 200",
    ("PATCH /v1/me/ticks/{id}", "attempts"): "a flash has one attempt, a send more (two members)",
    ("PATCH /v1/me/ticks/{id}", "felt_grade"): "a grade of the tick's axis",
    ("GET /v1/me/logbook", "grade_min"): "a grade of any scale",
    ("GET /v1/me/logbook", "grade_max"): "a grade of any scale, on grade_min's axis",
    ("GET /v1/members/{id}/logbook", "grade_min"): "a grade of any scale",
    ("GET /v1/members/{id}/logbook", "grade_max"): "a grade of any scale, on grade_min's axis",
    ("GET /v1/me/logbook/summary", "period"): "instead of from and to (several members)",
    ("GET /v1/me/logbook/summary", "from"): "compares with to",
    ("GET /v1/me/logbook/recap.png", "period"): "instead of from and to (several members)",
    ("GET /v1/me/logbook/recap.png", "from"): "compares with to",
    ("GET /v1/me/logbook/pyramid.png", "period"): "instead of from and to (several members)",
    ("GET /v1/me/logbook/pyramid.png", "from"): "compares with to",
    ("GET /v1/members/{id}/logbook/summary", "period"): "instead of from and to (several members)",
    ("GET /v1/members/{id}/logbook/summary", "from"): "compares with to",
    ("GET /v1/me/reports", "cursor"): "given out by the server",
    ("GET /v1/moderation/audit", "cursor"): "given out by the server",
    ("GET /v1/moderation/audit", "subject_id"): "goes with subject_type (two parameters together)",
    # Safety: a member blocks, bans and reports others, never themselves (compares with the caller).
    ("PUT /v1/me/blocks/{user_id}", "user_id"): "compares with the caller",
    ("PUT /v1/me/banned/{user_id}", "user_id"): "compares with the caller",
    # A subject's id is a number or a slug as its `subject_type` says (two members together).
    ("POST /v1/reports", "subject_id"): "its shape follows subject_type; not the caller",
    ("POST /v1/moderation/actions", "subject_id"): "its shape follows subject_type; a subject with a member to suspend",
    # What can be lifted, and when a suspension ends, are the subject's state and the clock.
    ("POST /v1/moderation/actions", "action"): "lift needs a suspension or a hidden subject (stored state)",
    ("POST /v1/moderation/actions", "until"): "compares with the clock",
    # Finding meetups: members that go in pairs, values read against a scale, and the caller.
    ("GET /v1/me/feed", "cursor"): "given out by the server",
    ("GET /v1/meetups", "sort"): "sort=distance needs near (two parameters)",
    ("GET /v1/meetups", "radius_km"): "goes with near (two parameters)",
    ("GET /v1/meetups", "to"): "compares with from (two parameters)",
    ("GET /v1/meetups", "near"): "each number's range inside one text",
    ("GET /v1/me/feed", "near"): "each number's range inside one text",
    ("GET /v1/meetups", "q"): "needs a word of two letters or digits (after folding)",
    ("GET /v1/meetups", "level"): "a grade of some scale of the discipline's axis",
    ("POST /v1/meetups", "latitude"): "goes with longitude (two members)",
    ("POST /v1/meetups", "longitude"): "goes with latitude (two members)",
    ("PATCH /v1/meetups/{id}", "latitude"): "goes with longitude (two members)",
    ("PATCH /v1/meetups/{id}", "longitude"): "goes with latitude (two members)",
    ("POST /v1/meetups", "level_min"): "a grade range in a scale of the discipline's axis (members together)",
    ("POST /v1/meetups", "level_max"): "goes with level_min (two members)",
    ("PATCH /v1/meetups/{id}", "level_min"): "a grade range in a scale of the discipline's axis (members together)",
    ("PATCH /v1/meetups/{id}", "level_max"): "goes with level_min (two members)",
    ("POST /v1/meetups", "tags"): "each tag once (uniqueness the validator's keywords leave out)",
    ("PATCH /v1/meetups/{id}", "tags"): "each tag once (uniqueness the validator's keywords leave out)",
    ("PATCH /v1/meetups/{id}", "visibility"): "a published page goes with a public meetup (stored state)",
    ("PUT /v1/me/follows/hosts/{id}", "user_id"): "not the caller",
    # The terms to accept are the club's setting (`accounts.terms_version`).
    ("POST /v1/me/terms", "version"): "the club's current version, a setting",
}


def _subject(response):
    try:
        problem = response.json()
    except Exception:
        return None
    if not isinstance(problem, dict):
        return None
    subject = problem.get("field") or problem.get("parameter") or problem.get("header")
    # An element of a listed member (`boulder_levels[2].scale`) is refused for the member's reason.
    return subject.split("[", 1)[0] if isinstance(subject, str) else subject


@schemathesis.check
def schema_valid_request_accepted(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if status < 400 or status in (401, 403, 404, 409, 429) or status >= 500:
        return None
    if (case.operation.label, _subject(response)) in NOT_STATABLE:
        return None
    raise RejectedPositiveData(
        operation=case.operation.label,
        message="Valid data should have been accepted\nExpected: " + ", ".join(ACCEPTED),
        status_code=status,
        allowed_statuses=ACCEPTED,
    )
