"""The driver of bench/push (see that script for what it measures and why).

    bench/push.py BELAY_BINARY CHECKIN_MEMBERS
"""
import http.client
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BELAY, MEMBERS = sys.argv[1], int(sys.argv[2])
# BURST_ONLY=1: only the 120-member burst, on the directory and on the bucket (no check-in runs, no reminders).
BURST_ONLY = os.environ.get("BURST_ONLY", "") not in ("", "0")
# FLOOD_ONLY=1: only the 120-member burst while 10,000 reminders are due.
FLOOD_ONLY = os.environ.get("FLOOD_ONLY", "") not in ("", "0")
RUNS = 3  # check-in runs of each kind, alternating
ROOT = os.getcwd()
work = tempfile.mkdtemp(prefix="belay-bench-push.")
children = []


def start(arguments, **options):
    child = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=open(os.path.join(work, f"child{len(children)}.err"), "w"),
                             text=True, **options)
    children.append(child)
    return child


def line_starting(child, prefix):
    while True:
        line = child.stdout.readline()
        if not line:
            sys.exit(f"error: a child ended before printing '{prefix}'; see {work}")
        if line.startswith(prefix):
            return line[len(prefix):].strip()


def belay(*arguments):
    return subprocess.run([BELAY, *arguments, "--config", config_path], check=True, capture_output=True, text=True).stdout


def request(port, method, path, token=None, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, json.loads(data) if data else None


def seed(members, capacity):
    tokens = os.path.join(work, f"tokens-{len(os.listdir(work))}.txt")
    report = json.loads(belay("dev", "seed-bench", "--members", str(members), "--capacity", str(capacity), "--upcoming", "0",
                              "--tokens", tokens, "--json"))
    with open(tokens) as f:
        report["members"] = [line.split() for line in f if line.strip()]
    return report


def set_aside_renders():
    """Cancels the sticker renders still queued (the server's workers then find none), so that
    the next run starts with nothing of the last one's left to draw or tell; returns how many."""
    db = sqlite3.connect(os.path.join(work, "data", "belay.sqlite3"), timeout=30)
    count = db.execute("UPDATE render_jobs SET status = 'cancelled' WHERE status = 'queued'").rowcount
    db.commit()
    db.close()
    return count


def wait_until_idle(pid, limit=60):
    """Waits until process `pid` has used under a twentieth of a core for a whole second."""
    ticks = os.sysconf("SC_CLK_TCK")

    def used():
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    for _ in range(limit):
        before = used()
        time.sleep(1)
        if (used() - before) * 20 < ticks:
            return


def give_devices(meetups):
    """An iPhone for every member going to `meetups`, as the app would register it."""
    db = sqlite3.connect(os.path.join(work, "data", "belay.sqlite3"))
    marks = ",".join("?" * len(meetups))
    db.execute(f"""INSERT INTO devices (user_id, session_id, platform, token, app_id, environment, locale, created_at, updated_at)
                   SELECT member_id, NULL, 'ios', 'bench' || member_id, 'club.belay.bench', 'production', 'ko', 0, 0
                   FROM attendances WHERE meetup_id IN ({marks})""", meetups)
    db.commit()
    db.close()

def burst_row(port, burst):
    """120 members of one meetup check in at once; from each check-in's answer to its "sticker
    ready" notice arriving at the local APNs: the sorted lags and the span of the answers."""
    host = burst["host_token"]
    meetup = burst["check_in_meetup_ids"][0]
    _, code = request(port, "GET", f"/v1/meetups/{meetup}/check-in-code", host)
    answered = {}
    reward_tokens = {}
    barrier = threading.Barrier(len(burst["members"]))

    def check_in(token):
        barrier.wait()
        status, body = request(port, "POST", f"/v1/meetups/{meetup}/check-in", token, {"code": code["code"]})
        if status in (200, 201) and body.get("reward"):
            answered[body["reward"]["id"]] = time.time()
            reward_tokens[body["reward"]["id"]] = token
        else:
            print(f"warning: a check-in answered {status}: {body}", file=sys.stderr)

    threads = [threading.Thread(target=check_in, args=(member[0],)) for member in burst["members"]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    burst_span = max(answered.values()) - min(answered.values())
    deadline = time.time() + 60
    while time.time() < deadline:
        _, ready = request(control, "GET", "/ready-times")
        if all(str(reward) in ready for reward in answered):
            break
        time.sleep(0.2)
    lags = sorted(ready[str(reward)] - at for reward, at in answered.items() if str(reward) in ready)
    burst["answered"], burst["ready"] = answered, ready
    if len(lags) < len(answered):
        missing = [reward for reward in answered if str(reward) not in ready][:3]
        for reward in missing:
            status, body = request(port, "GET", f"/v1/rewards/{reward}", reward_tokens.get(reward))
            print(f"warning: no ready notice for reward {reward}: {status} render_status={body.get('render_status') if body else None}",
                  file=sys.stderr)
        print(f"warning: notices received by kind: {request(control, 'GET', '/counts')[1]}", file=sys.stderr)
    return lags, burst_span


def move_meetup(meetup, minutes):
    """Moves `meetup` to start `minutes` from now (for two hours); its members are reminded
    again for the new start once it is within push.reminder_minutes_before (120)."""
    db = sqlite3.connect(os.path.join(work, "data", "belay.sqlite3"), timeout=30)
    starts = int((time.time() + minutes * 60) * 1000)
    db.execute("UPDATE meetups SET starts_at = ?, ends_at = ? WHERE id = ?", (starts, starts + 7_200_000, meetup))
    db.commit()
    db.close()


def flood_row(port, burst, reminded):
    """The 120-member burst while 10,000 reminders are due: the reminded meetup is moved to 100
    minutes ahead (the server queues all its reminders on its next look at the schedule, within
    5 s) and the burst checks in the moment the first of them reaches APNs. Returns the burst's
    lags and span, how many reminders had arrived when it began and when its last "sticker
    ready" did, and how long all 10,000 took from the first."""
    before = request(control, "GET", "/counts")[1].get("meetup_reminder", 0)
    move_meetup(reminded["check_in_meetup_ids"][0], 100 + (1 if before else 0))
    deadline = time.time() + 30
    while time.time() < deadline:
        counts = request(control, "GET", "/counts")[1]
        if counts.get("meetup_reminder", 0) > before:
            break
        time.sleep(0.01)
    flood_began = time.time()
    at_burst = counts.get("meetup_reminder", 0) - before
    lags, span = burst_row(port, burst)
    at_last_ready = request(control, "GET", "/counts")[1].get("meetup_reminder", 0) - before
    stored, sent = split_lags(burst)
    deadline = time.time() + 300
    while time.time() < deadline:
        done = request(control, "GET", "/counts")[1].get("meetup_reminder", 0) - before
        if done >= 10_000:
            break
        time.sleep(0.1)
    return lags, span, at_burst, at_last_ready, done, time.time() - flood_began, stored, sent


def split_lags(burst):
    """Each lag of the last burst split in two: from the check-in's answer to its "sticker
    ready" being queued (the sticker rendered and stored), and from there to APNs (the push
    worker's part, which the flood competes for): the sorted lags of each."""
    db = sqlite3.connect(os.path.join(work, "data", "belay.sqlite3"), timeout=30)
    queued = {json.loads(payload).get("reward_id"): created / 1000
              for payload, created in db.execute("SELECT payload, created_at FROM push_notices WHERE kind = 'reward_ready'")}
    db.close()
    answered, ready = burst["answered"], burst["ready"]
    stored = sorted(queued[r] - answered[r] for r in answered if r in queued)
    sent = sorted(ready[str(r)] - queued[r] for r in answered if r in queued and str(r) in ready)
    return stored, sent


def print_flood_rows(lags, span, alone_stored, alone_sent, flood):
    """FLOOD_ONLY's table: the burst alone (the anchor), the burst while 10,000 reminders are
    due (the target), and each split where its time went."""
    def split(stored, sent):
        return f"answer -> queued (sticker stored) p50 {percentiles(stored)[0]:.3f} / p99 {percentiles(stored)[1]:.3f} s, " \
               f"queued -> at APNs p50 {percentiles(sent)[0]:.3f} / p99 {percentiles(sent)[1]:.3f} s"
    p50, p99 = percentiles(lags)
    label = f"120 check-ins at once ({span:.2f} s apart): answer -> 'sticker ready' at APNs (anchor)"
    print(f"{label:<96} {f'p50 {p50:.3f} s, p99 {p99:.3f} s':>26} {'':>22}")
    p50, p99 = percentiles(flood[0])
    label = f"the same ({flood[1]:.2f} s apart) while 10,000 reminders are due"
    print(f"{label:<96} {f'p50 {p50:.3f} s, p99 {p99:.3f} s':>26} {'p99 < 1 s':>22}  "
          f"{'PASS' if len(flood[0]) == 120 and p99 < 1 else 'FAIL'}")
    print(f"(alone: {split(alone_stored, alone_sent)}; {len(lags)} of 120 ready notices arrived)")
    print(f"(with the reminders: {split(flood[6], flood[7])}; {len(flood[0])} of 120 ready notices arrived)")
    print(f"(reminders at APNs: {flood[2]} when the burst began, {flood[3]} when its last 'sticker ready' arrived, {flood[4]} of 10,000 "
          f"{flood[5]:.1f} s after the first)")


def percentiles(lags):
    p50 = statistics.median(lags) if lags else float("nan")
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else float("nan")
    return p50, p99


try:
    os.makedirs(os.path.join(work, "push"))
    services = start(["nice", "-n", "19", os.path.join(ROOT, "scripts/test-python"), os.path.join(ROOT, "bench/apns-receiver.py"),
                      os.path.join(work, "push")])
    control = int(line_starting(services, "listening "))
    tls = int(line_starting(services, "tls "))
    url = f"https://127.0.0.1:{tls}"
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w") as f:
        json.dump(settings := {
            "data_directory": os.path.join(work, "data"), "assets_directory": os.path.join(ROOT, "Assets"),
            "migrations_directory": os.path.join(ROOT, "Migrations"),
            "server": {"host": "127.0.0.1", "port": 0, "public_base_url": "http://127.0.0.1:8080"},
            "rate_limits": {"auth_per_address_per_minute": 100000000, "public_per_address_per_minute": 100000000},
            "push": {"ca_file": os.path.join(work, "push", "ca.pem"),
                     "apns": {"key_file": os.path.join(work, "push", "apns-key.p8"), "key_id": "PUSHKEY123", "team_id": "TEAM123456",
                              "url": url, "sandbox_url": url}},
        }, f)
    belay("migrate")
    belay("holds", "import")
    print("Seeding: 120 members for the burst, 10,000 for the reminders, %d x %d for the check-in runs..." % (2 * RUNS, MEMBERS),
          file=sys.stderr)
    if FLOOD_ONLY:
        burst = seed(120, 120)
        burst_flood = seed(120, 120)
        reminded = seed(10_000, 10_000)
        give_devices(burst["check_in_meetup_ids"] + burst_flood["check_in_meetup_ids"] + reminded["check_in_meetup_ids"])
        # Six hours ahead: nothing is due for the reminded meetup until the flood row moves it.
        move_meetup(reminded["check_in_meetup_ids"][0], 360)
    else:
        burst = seed(120, 120)
        burst_bucket = seed(120, 120)
        give_devices(burst["check_in_meetup_ids"] + burst_bucket["check_in_meetup_ids"])
    if not BURST_ONLY and not FLOOD_ONLY:
        burst_flood = seed(120, 120)
        reminded = seed(10_000, 10_000)
        runs = {kind: [seed(MEMBERS, 10_000) for _ in range(RUNS)] for kind in ("without", "with")}
        give_devices(burst_flood["check_in_meetup_ids"] + reminded["check_in_meetup_ids"])
        # The reminded meetup starts in 100 minutes: inside push.reminder_minutes_before (120).
        move_meetup(reminded["check_in_meetup_ids"][0], 100)

    # --- Row 3: 10,000 reminders due at once -------------------------------------------------
    server = start([BELAY, "serve", "--config", config_path])
    started = time.time()
    port = int(line_starting(server, "listening on http://127.0.0.1:"))
    while not BURST_ONLY and not FLOOD_ONLY:
        _, counts = request(control, "GET", "/counts")
        if counts.get("meetup_reminder", 0) >= 10_000:
            break
        if time.time() - started > 300:
            break
        time.sleep(0.2)
    reminders_seconds = time.time() - started
    reminders_done = counts.get("meetup_reminder", 0) if not BURST_ONLY and not FLOOD_ONLY else 0

    if FLOOD_ONLY:
        # The burst alone first, as the anchor, then the same while 10,000 reminders are due.
        wait_until_idle(server.pid)
        lags, burst_span = burst_row(port, burst)
        alone_stored, alone_sent = split_lags(burst)
        wait_until_idle(server.pid)
        flood = flood_row(port, burst_flood, reminded)
        print(f"\nbench/push: {os.cpu_count()} cores; belay serve on its defaults (server threads = cores, 2 render workers); APNs on loopback "
              f"(bench/apns-receiver.py: python-h2, TLS, nice 19)")
        print(f"{'row':<96} {'measured':>26} {'target':>22}  verdict")
        print_flood_rows(lags, burst_span, alone_stored, alone_sent, flood)
        sys.exit(0)

    # --- Row 2: 120 check-ins at once, to each "sticker ready" notice -------------------------
    lags, burst_span = burst_row(port, burst)

    # --- Row 4: the same burst while 10,000 reminders are due ----------------------------------
    if not BURST_ONLY:
        wait_until_idle(server.pid)
        flood = flood_row(port, burst_flood, reminded)

    # --- Row 2b: the same burst with images in a bucket ----------------------------------------
    # The same club on the loopback S3 server the tests use (moto's server mode, signatures
    # checked): a second `belay serve` with images.store = s3, after the first has stopped.
    server.terminate()
    server.wait(timeout=30)
    store = start([os.path.join(ROOT, "scripts/test-python"), os.path.join(ROOT, "scripts/testing/s3-server.py"), "--bucket", "belay-bench"])
    key_id, secret = line_starting(store, "key ").split()
    store_port = int(line_starting(store, "listening "))
    secret_file = os.path.join(work, "s3-secret")
    with open(secret_file, "w") as f:
        f.write(secret)
    bucket_config = os.path.join(work, "config-s3.json")
    with open(bucket_config, "w") as f:
        json.dump(dict(settings, images={"store": "s3", "s3": {
            "endpoint": f"http://127.0.0.1:{store_port}", "bucket": "belay-bench", "region": "us-east-1", "path_style": 1,
            "access_key_id": key_id, "secret_access_key_file": secret_file}}), f)
    set_aside_renders()
    server = start([BELAY, "serve", "--config", bucket_config])
    port = int(line_starting(server, "listening on http://127.0.0.1:"))
    wait_until_idle(server.pid)
    bucket_lags, bucket_span = burst_row(port, burst_bucket)

    # --- Row 1: check-ins with and without devices, alternating ------------------------------
    def members_file(report):
        path = os.path.join(work, f"members-{report['check_in_meetup_ids'][0]}.txt")
        codes = {}
        with open(path, "w") as f:
            for token, meetup_id in report["members"]:
                if meetup_id not in codes:
                    codes[meetup_id] = request(port, "GET", f"/v1/meetups/{meetup_id}/check-in-code", report["host_token"])[1]["code"]
                f.write(f"{token} {meetup_id} {codes[meetup_id]}\n")
        return path

    # The check-in runs' members get their phones only now: their meetups' "check-in is open"
    # notices (queued once, when the server started) would otherwise be 40,000 notices sent
    # during the runs, which is not what this row measures.
    rates = {"without": [], "with": []}
    if not BURST_ONLY:
        give_devices([m for r in runs["with"] for m in r["check_in_meetup_ids"]])
    # without, with, with, without, without, with: each kind as often early as late, and each run
    # after the last one's leftover renders are set aside and the server is idle again, so that a
    # run carries only its own stickers and notices, not the previous run's.
    order = [("without", "with")[(index + index // 2) % 2] for index in range(2 * RUNS)] if not BURST_ONLY else []
    for kind in order:
        set_aside_renders()
        wait_until_idle(server.pid)
        path = members_file(runs[kind][len(rates[kind])])
        output = subprocess.run(["wrk", "-t2", "-c64", "-d5s", "--latency", "-s", os.path.join(ROOT, "bench/http-check-in.lua"),
                                 f"http://127.0.0.1:{port}/v1/meetups/0/check-in", "--", path, "2"],
                                check=True, capture_output=True, text=True).stdout
        rates[kind].append(float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)))
    # Medians: one run of either kind now and then lands far from the others.
    without, with_devices = (statistics.median(rates["without"]), statistics.median(rates["with"])) if not BURST_ONLY else (0, 0)

    def verdict(ok):
        return "PASS" if ok else "FAIL"

    cores = os.cpu_count()
    print(f"\nbench/push: {cores} cores; belay serve on its defaults (server threads = cores, 2 render workers); APNs on loopback "
          f"(bench/apns-receiver.py: python-h2, TLS, nice 19)")
    print(f"{'row':<78} {'measured':>22} {'anchor / target':>30}  verdict")
    if not BURST_ONLY:
        print(f"{'POST check-in, members without a device (anchor; median of 3 x 5 s)':<78} {without:>18.0f} /s {'':>30}")
        share = with_devices / without
        print(f"{'POST check-in, every member with an iPhone registered (median of 3 x 5 s)':<78} {with_devices:>18.0f} /s "
              f"{f'{share:.0%} of anchor, target 90%':>30}  {verdict(share >= 0.9)}")
    p50, p99 = percentiles(lags)
    label = f"120 check-ins at once ({burst_span:.2f} s apart): answer -> 'sticker ready' at APNs"
    print(f"{label:<78} {f'p50 {p50:.3f} s, p99 {p99:.3f} s':>22} {'p50 < 0.5 s, p99 < 1 s':>30}  {verdict(len(lags) == 120 and p50 < 0.5 and p99 < 1)}")
    p50, p99 = percentiles(bucket_lags)
    label = f"  the same, images.store = s3 (loopback moto, {bucket_span:.2f} s apart)"
    print(f"{label:<78} {f'p50 {p50:.3f} s, p99 {p99:.3f} s':>22} {'p50 < 0.5 s, p99 < 1 s':>30}  "
          f"{verdict(len(bucket_lags) == 120 and p50 < 0.5 and p99 < 1)}")
    if not BURST_ONLY:
        p50, p99 = percentiles(flood[0])
        label = f"  the same on the directory, while 10,000 reminders are due ({flood[1]:.2f} s apart)"
        print(f"{label:<78} {f'p50 {p50:.3f} s, p99 {p99:.3f} s':>22} {'p99 < 1 s':>30}  {verdict(len(flood[0]) == 120 and p99 < 1)}")
        label = f"10,000 reminders due at once: all delivered ({reminders_done} arrived)"
        print(f"{label:<78} {f'{reminders_seconds:.1f} s':>22} {'60 s':>30}  {verdict(reminders_done >= 10_000 and reminders_seconds <= 60)}")
        print(f"(the burst beside reminders: {flood[2]} of them at APNs when it began, {flood[3]} when its last 'sticker ready' arrived, "
              f"{flood[4]} of 10,000 {flood[5]:.1f} s after the first; queued -> at APNs p99 {percentiles(flood[7])[1]:.3f} s, "
              f"answer -> queued (sticker stored) p99 {percentiles(flood[6])[1]:.3f} s)")
    print(f"(check-in runs: without {', '.join(f'{r:.0f}' for r in rates['without'])}; with {', '.join(f'{r:.0f}' for r in rates['with'])} /s; "
          f"{len(lags)} + {len(bucket_lags)} of 120 + 120 ready notices arrived)")
finally:
    for child in children:
        child.terminate()
    for child in children:
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
    shutil.rmtree(work, ignore_errors=True)
