-- The climbing logbook: gyms and how they grade (a standard scale or their own colour
-- circuit), the problems on their walls, the members who manage them, and every climb a
-- member logs (a tick). Grades are kept as scores on their axis (GradeTable: 0…107 for
-- boulders and for routes) beside the text as given, so ticks in mixed scales sort and
-- compare; a tick keeps a snapshot of its problem's grade and colour, because sets are
-- stripped and circuits change. Forward-only: never edit once shipped.

CREATE TABLE gyms (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    -- The name in other locales, a JSON object of language tag to name ({"ko": "더클라임 강남점"}).
    localized_names TEXT NOT NULL DEFAULT '{}',
    address TEXT,
    country TEXT CHECK (country IS NULL OR length(country) = 2),
    -- Where it is, in millionths of a degree (about 11 cm): exact on both engines and in
    -- `belay db copy`, which a floating-point column would not be.
    latitude_e6 INTEGER CHECK (latitude_e6 IS NULL OR latitude_e6 BETWEEN -90000000 AND 90000000),
    longitude_e6 INTEGER CHECK (longitude_e6 IS NULL OR longitude_e6 BETWEEN -180000000 AND 180000000),
    time_zone TEXT NOT NULL,
    website TEXT,
    -- How boulders and routes are graded: a standard scale, or 'circuit' (gym_levels).
    boulder_grading TEXT NOT NULL CHECK (boulder_grading IN ('v', 'font', 'circuit')),
    route_grading TEXT NOT NULL CHECK (route_grading IN ('yds', 'french', 'uiaa', 'ewbank', 'circuit')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK ((latitude_e6 IS NULL) = (longitude_e6 IS NULL))
) STRICT;

-- A gym's colour circuit, per axis: levels in order, easiest first, each covering a range
-- of a standard grade (빨강 = V4–V5).
CREATE TABLE gym_levels (
    gym_id INTEGER NOT NULL REFERENCES gyms(id),
    axis TEXT NOT NULL CHECK (axis IN ('boulder', 'route')),
    position INTEGER NOT NULL CHECK (position >= 1),
    colour TEXT NOT NULL CHECK (length(colour) = 7),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
    localized_names TEXT NOT NULL DEFAULT '{}',
    score_min INTEGER NOT NULL,
    score_max INTEGER NOT NULL CHECK (score_max >= score_min),
    PRIMARY KEY (gym_id, axis, position)
) STRICT;

CREATE TABLE gym_managers (
    gym_id INTEGER NOT NULL REFERENCES gyms(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (gym_id, user_id)
) STRICT;
CREATE INDEX gym_managers_by_user ON gym_managers(user_id);

CREATE TABLE problems (
    id INTEGER PRIMARY KEY,
    gym_id INTEGER NOT NULL REFERENCES gyms(id),
    wall TEXT NOT NULL CHECK (length(wall) BETWEEN 1 AND 60),
    discipline TEXT NOT NULL CHECK (discipline IN ('boulder', 'lead', 'top_rope', 'auto_belay')),
    hold_colour TEXT NOT NULL CHECK (length(hold_colour) BETWEEN 1 AND 30),
    -- The grade as the gym gives it: a grade of its scale, or a circuit level's name.
    grade TEXT NOT NULL CHECK (length(grade) BETWEEN 1 AND 20),
    level_position INTEGER,
    score_min INTEGER NOT NULL,
    score_max INTEGER NOT NULL,
    name TEXT,
    setter TEXT,
    set_on TEXT NOT NULL CHECK (length(set_on) = 10),
    expected_removal_on TEXT,
    removed_on TEXT,
    -- What makes a problem the same one when a set's file is uploaded twice.
    natural_key TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (gym_id, natural_key)
) STRICT;
CREATE INDEX problems_current_by_gym ON problems(gym_id, removed_on, wall);

CREATE TABLE ticks (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    -- The app's own id of the tick, so that a retried batch records nothing twice.
    client_tick_id TEXT NOT NULL CHECK (length(client_tick_id) BETWEEN 1 AND 64),
    kind TEXT NOT NULL CHECK (kind IN ('problem', 'level', 'outdoor')),
    problem_id INTEGER REFERENCES problems(id),
    gym_id INTEGER REFERENCES gyms(id),
    meetup_id INTEGER REFERENCES meetups(id),
    discipline TEXT NOT NULL CHECK (discipline IN ('boulder', 'lead', 'top_rope', 'auto_belay')),
    axis TEXT NOT NULL CHECK (axis IN ('boulder', 'route')),
    -- The snapshot of the grade as it was: its text, its scale (NULL for a circuit level),
    -- the level's position and colour, and its scores.
    grade TEXT NOT NULL,
    grade_scale TEXT,
    level_position INTEGER,
    colour TEXT,
    score_min INTEGER NOT NULL,
    score_max INTEGER NOT NULL,
    route_name TEXT,
    crag TEXT,
    style TEXT NOT NULL CHECK (style IN ('flash', 'send', 'repeat', 'attempt')),
    attempts INTEGER NOT NULL CHECK (attempts BETWEEN 1 AND 999),
    climbed_at INTEGER NOT NULL,
    -- The day in the zone of the gym (or the meetup, or the club), YYYY-MM-DD.
    climbed_on TEXT NOT NULL CHECK (length(climbed_on) = 10),
    note TEXT,
    stars INTEGER CHECK (stars IS NULL OR stars BETWEEN 1 AND 5),
    felt_grade TEXT,
    felt_score INTEGER,
    visibility TEXT NOT NULL CHECK (visibility IN ('public', 'members', 'private')),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (user_id, client_tick_id)
) STRICT;
CREATE INDEX ticks_by_user_day ON ticks(user_id, climbed_on, id);
CREATE INDEX ticks_by_meetup ON ticks(meetup_id) WHERE meetup_id IS NOT NULL;
CREATE INDEX ticks_by_problem ON ticks(problem_id) WHERE problem_id IS NOT NULL;
-- Gym rankings and the span of a colour level: a gym's ticks by day.
CREATE INDEX ticks_by_gym_day ON ticks(gym_id, climbed_on) WHERE gym_id IS NOT NULL;

-- A member's scales and the visibility their new ticks take.
CREATE TABLE logbook_preferences (
    user_id INTEGER PRIMARY KEY REFERENCES users(id),
    boulder_scale TEXT NOT NULL CHECK (boulder_scale IN ('v', 'font')),
    route_scale TEXT NOT NULL CHECK (route_scale IN ('yds', 'french')),
    default_visibility TEXT NOT NULL CHECK (default_visibility IN ('public', 'members', 'private')),
    -- Whether the member is listed in gym rankings (they opt in).
    in_rankings INTEGER NOT NULL DEFAULT 0 CHECK (in_rankings IN (0, 1)),
    updated_at INTEGER NOT NULL
) STRICT;

-- A meetup may be at a gym: it takes the gym's name, address and zone.
ALTER TABLE meetups ADD COLUMN gym_id INTEGER REFERENCES gyms(id);
CREATE INDEX meetups_by_gym ON meetups(gym_id, starts_at) WHERE gym_id IS NOT NULL;
