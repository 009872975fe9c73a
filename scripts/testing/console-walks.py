"""Walks people through Belay's console in a real browser: Selenium driving Debian's headless
Chromium through chromium-driver, as a host, a moderator or a gym manager would click and type.

    console-walks.py PLAN.json

PLAN names the server (`base`), the directory the tests' SMTP server spools each message to
(`mail_spool`, where the sign-in codes are read), a folder for screenshots (`screenshots`) and
the walks to take, each an object with `walk` and what it needs:

- `evening`: the host (`email`, `mail_number`) signs in with the mailed code, creates a meetup
  (`title`, `place`, `starts_at`, `ends_at` in the club's zone, `capacity`), its `members`
  (`handle`, `id`, `token`) join it from the app, the kiosk is opened in a second window and
  its QR code read back with zbarimg, the members check in with that code while the door list
  follows without a reload, one is undone from its row, one is found by typing part of their
  name, the CSV is exported with the session's cookie and parsed, the members share their
  stickers and the share chart is looked at.
- `moderation`: a moderator signs in and suspends the reported member (`subject_id`) from the
  queue with a `reason`; the audit log shows it.
- `gym`: a gym manager uploads a set file (`bad_csv`) through the page's file input, sees the
  bad row named and no way to write, then uploads `good_csv`, previews and writes it.

Prints one JSON line of what was seen (ids, texts, parsed rows) and exits 0; any step that does
not happen as a person would see it exits 1 naming the step.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


class WalkFailed(Exception):
    pass


def expect(condition, step):
    if not condition:
        raise WalkFailed(step)


class Browser:
    """One Chromium, driven through chromedriver, with a profile of its own; a context manager
    that quits it and removes its folder (the profile and the walk's files) at the end."""

    def __init__(self, plan, name):
        self.plan = plan
        self.base = plan["base"]
        self.name = name
        self.folder = tempfile.TemporaryDirectory(prefix="belay-selenium-")
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,860", "--lang=ko-KR", "--user-data-dir=" + os.path.join(self.folder.name, "profile")):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(30)

    def __enter__(self):
        return self

    def __exit__(self, *failure):
        self.driver.quit()
        self.folder.cleanup()

    def file(self, name):
        """A path in this browser's own folder, for files the walk writes."""
        return os.path.join(self.folder.name, name)

    def open(self, path):
        self.driver.get(self.base + path)

    def wait(self, what, step, timeout=15):
        try:
            # A navigation may replace the document between a lookup and its use.
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1,
                                 ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(what)
        except TimeoutException:
            raise WalkFailed("%s (at %s)" % (step, self.driver.current_url))

    def arrived(self, pattern, step):
        """Waits until the page at a path matching `pattern` has loaded; answers the match."""
        def loaded(driver):
            found = re.fullmatch(pattern, self.path())
            return found if found and driver.execute_script("return document.readyState;") == "complete" else None
        return self.wait(loaded, step)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    def keep(self, name):
        folder = self.plan.get("screenshots")
        if folder:
            os.makedirs(folder, exist_ok=True)
            self.driver.save_screenshot(os.path.join(folder, "%s-%s.png" % (self.name, name)))

    def set_value(self, selector, value):
        """For inputs whose typing depends on the browser's locale (dates and times)."""
        self.driver.execute_script("arguments[0].value = arguments[1];", self.find(selector), value)

    def sign_in(self, email, mail_number):
        self.open("/console/sign-in")
        field = self.find("#email")
        field.send_keys(email)
        field.submit()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#code"), "the code form follows the email form")
        code = mailed_code(self.plan["mail_spool"], mail_number, email)
        field = self.find("#code")
        field.send_keys(code)
        field.submit()
        self.arrived("/console", "signing in with the mailed code opens the console")

    def cookie_header(self):
        return "; ".join("%s=%s" % (c["name"], c["value"]) for c in self.driver.get_cookies())


def mailed_code(spool, number, email, timeout=30):
    """The six digits at the end of the `number`th message's subject, sent to `email`."""
    path = os.path.join(spool, "%06d.json" % number)
    deadline = time.time() + timeout
    while not os.path.exists(path):
        expect(time.time() < deadline, "mail number %d reaches the SMTP server" % number)
        time.sleep(0.1)
    with open(path) as spooled:
        message = json.load(spooled)
    expect(email.lower() in [r.lower() for r in message["rcpt_tos"]], "mail number %d is sent to %s" % (number, email))
    code = message["subject"][-6:]
    expect(code.isdigit(), "the mail's subject ends in its six digits")
    return code


def api(base, method, path, token, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
        return response.status, json.loads(text) if text else None


def rows_with_status(browser, status):
    return len(browser.all('#door-rows tr[data-status="%s"]' % status))


def evening(plan, walk):
    seen = {}
    with Browser(plan, "host") as host:
        host.sign_in(walk["email"], walk["mail_number"])
        host.open("/console/meetups/new")
        host.find("#title").send_keys(walk["title"])
        host.find("#place_name").send_keys(walk["place"])
        host.set_value("#starts_at", walk["starts_at"])
        host.set_value("#ends_at", walk["ends_at"])
        capacity = host.find("#capacity")
        capacity.clear()
        capacity.send_keys(str(walk["capacity"]))
        host.keep("new-meetup")
        host.find("main form button[type=submit]").click()
        door = host.arrived(r"/console/meetups/(\d+)", "the new meetup opens on its door list")
        meetup_id = int(door.group(1))
        door_path = door.group(0)
        seen["meetup_id"] = meetup_id
        expect(walk["title"] in host.find("h1").text, "the door list is headed by the meetup's title")

        for member in walk["members"]:
            status, _ = api(plan["base"], "POST", "/v1/meetups/%d/join" % meetup_id, member["token"])
            expect(status == 201, "%s joins from the app" % member["handle"])

        # The kiosk: a new link on the door list, opened in a second window, its QR read back.
        host.open(door_path)
        host.find('form[action$="/kiosk"] button').click()
        kiosk_url = host.wait(lambda d: d.find_elements(By.ID, "kiosk-url") and d.find_element(By.ID, "kiosk-url").get_attribute("href"),
                              "opening the kiosk shows its new link")
        host_window = host.driver.current_window_handle
        host.driver.switch_to.new_window("window")
        host.driver.get(kiosk_url)
        host.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#code[data-code]"), "the kiosk shows its code")
        shot = host.file("kiosk.png")
        host.driver.save_screenshot(shot)
        host.keep("kiosk")
        scanned = subprocess.run(["zbarimg", "--raw", "-q", shot], capture_output=True, text=True)
        expect(scanned.returncode == 0 and scanned.stdout.strip(), "zbarimg reads the kiosk's QR code")
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(scanned.stdout.split()[0]).query).get("code", [""])[0]
        expect(code, "the kiosk's QR code carries a check-in code")
        seen["kiosk_code"] = code
        kiosk_window = host.driver.current_window_handle
        host.driver.switch_to.window(host_window)

        # The door list, open on the host's laptop, follows the check-ins without a reload.
        host.open(door_path)
        host.driver.execute_script("window.sameDocument = 'yes';")
        for member in walk["members"]:
            status, body = api(plan["base"], "POST", "/v1/meetups/%d/check-in" % meetup_id, member["token"], {"code": code})
            expect(status == 201, "%s checks in with the kiosk's code" % member["handle"])
        count = len(walk["members"])
        host.wait(lambda d: rows_with_status(host, "checked_in") == count, "the door list follows the check-ins without a reload")
        seen["counts"] = host.find("#counts").text
        host.keep("door-list")

        # Undo one, from its row, in place.
        first = walk["members"][0]
        row = host.find('#door-rows tr[data-member="%s"]' % first["id"])
        row.find_element(By.CSS_SELECTOR, 'button[form="door-undo-check-in"]').click()
        host.wait(lambda d: host.find('#door-rows tr[data-member="%s"]' % first["id"]).get_attribute("data-status") == "going",
                  "undoing a check-in turns its row back to going")

        # Found by typing part of a name.
        search = host.find("#q")
        search.send_keys(walk["search"])
        host.wait(lambda d: len(host.all("#door-rows tr[data-search]")) == 1, "typing part of a name narrows the list to one")
        seen["found"] = host.find("#door-rows tr[data-search]").get_attribute("data-member")
        host.keep("door-search")
        expect(host.driver.execute_script("return window.sameDocument;") == "yes", "the door list was never reloaded")
        search.send_keys(Keys.CONTROL, "a")
        search.send_keys(Keys.BACKSPACE)
        host.wait(lambda d: len(host.all("#door-rows tr[data-search]")) == count, "clearing the search shows everyone again")

        # The CSV, downloaded with the session's cookie and parsed.
        href = host.find("a[download]").get_attribute("href")
        request = urllib.request.Request(href, headers={"Cookie": host.cookie_header()})
        with urllib.request.urlopen(request, timeout=30) as response:
            expect(response.headers.get_content_type() == "text/csv", "the export is text/csv")
            text = response.read().decode("utf-8-sig")
        seen["csv"] = list(csv.DictReader(io.StringIO(text)))

        # The members share their stickers; the host looks at the chart and its table.
        shared = 0
        for member in walk["members"][1:]:
            _, rewards = api(plan["base"], "GET", "/v1/me/rewards", member["token"])
            reward = rewards["items"][0]["id"]
            for target in ("instagram_stories", "share_sheet", "instagram_stories"):
                shared += 1
                status, _ = api(plan["base"], "POST", "/v1/rewards/%d/share-events" % reward, member["token"],
                                {"target": target, "completed": True, "client_event_id": "walk-%d" % shared})
                expect(status == 201, "a share is recorded")
        host.open(door_path + "/shares")
        host.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#by-target-table tbody tr"), "the share page shows its table")
        seen["chart_bars"] = len(host.all("figure svg rect"))
        seen["share_table"] = [row.text for row in host.all("#by-target-table tbody tr")]
        host.keep("shares")

        host.driver.switch_to.window(kiosk_window)
        host.driver.close()
        host.driver.switch_to.window(host_window)
        logs = [entry for entry in host.driver.get_log("browser") if "favicon.ico" not in entry.get("message", "")]
        seen["browser_log"] = [entry["message"] for entry in logs]
    return seen


def moderation(plan, walk):
    seen = {}
    with Browser(plan, "moderator") as moderator:
        moderator.sign_in(walk["email"], walk["mail_number"])
        moderator.open("/console/moderation")
        moderator.wait(lambda d: d.find_element(By.ID, "subject-member-%s" % walk["subject_id"]), "the reported member is in the queue")
        key = "member-%s" % walk["subject_id"]
        Select(moderator.find("#action-" + key)).select_by_value("suspend")
        moderator.find("#reason-" + key).send_keys(walk["reason"])
        moderator.keep("queue")
        moderator.find("#reason-" + key).submit()
        moderator.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "main p.empty"), "the queue is empty after the suspension")
        moderator.open("/console/moderation/audit")
        seen["audit"] = moderator.find("main").text
        moderator.keep("audit")
    return seen


def gym(plan, walk):
    seen = {}
    with Browser(plan, "manager") as manager:
        manager.sign_in(walk["email"], walk["mail_number"])
        manager.open("/console/gyms/%d" % walk["gym_id"])

        def upload(name, text):
            path = manager.file(name)
            with open(path, "w") as file:
                file.write(text)
            manager.find("#csv-file").send_keys(path)
            manager.wait(lambda d: manager.find("#csv").get_attribute("value") == text, "choosing %s fills the text box" % name)
            manager.find('button[name="step"][value="preview"]').click()

        upload("set-with-a-bad-row.csv", walk["bad_csv"])
        manager.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.bad"), "a bad row is shown with its error")
        seen["bad_rows"] = [row.text for row in manager.all("tr.bad")]
        seen["write_offered_for_bad"] = bool(manager.all('button[name="step"][value="write"]'))
        manager.keep("set-bad-row")

        upload("set.csv", walk["good_csv"])
        manager.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "table.preview tbody tr"), "the fixed file is previewed row by row")
        seen["preview_rows"] = len(manager.all("table.preview tbody tr"))
        manager.keep("set-preview")
        manager.find('button[name="step"][value="write"]').click()
        manager.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, 'button[name="step"][value="write"]')
                     and d.find_elements(By.CSS_SELECTOR, "main h3"), "writing the set shows the walls")
        seen["walls"] = [heading.text for heading in manager.all("main h3")]
        manager.keep("set-written")
    return seen


def main():
    with open(sys.argv[1]) as file:
        plan = json.load(file)
    walks = {"evening": evening, "moderation": moderation, "gym": gym}
    results = {}
    try:
        for walk in plan["walks"]:
            results[walk["walk"]] = walks[walk["walk"]](plan, walk)
    except WalkFailed as failure:
        sys.stderr.write("the walk stopped: %s\n" % failure)
        sys.exit(1)
    except Exception:
        traceback.print_exc()
        sys.exit(1)
    sys.stdout.write(json.dumps(results, ensure_ascii=False) + "\n")


main()
