"""A member's whole journey through Belay, driven only through a client that openapi-python-client
generated from the served /openapi.json, as an app built on that client would: sign in with
Apple, read and change the profile, create a meetup (so the member hosts it), join it, read the
host's rotating code and check in with it, wait for the reward's images, read the share
payload, download the sticker and the story, find the hold in the catalogue and download its
artwork, find a meetup next week with every search filter, follow its gym and a host, read the
feed, publish the meetup's page and open it without a token, report a meetup, block a second member
who signed in and made a meetup of their own (it leaves the first member's list and search and
joining it is refused with 403 `not_permitted`) and lift the block (it comes back), export the
account's data, delete the account, and find the token refused afterwards.

    scripts/test-python scripts/testing/client-journey.py \\
        --base-url http://127.0.0.1:PORT --package /tmp/x/belay_client \\
        --identity-token JWT --nonce RAW_NONCE \\
        --second-identity-token JWT --second-nonce RAW_NONCE

Every step must answer the status the document promises for it, parsed into the generated
model; every JSON answer must keep all its members through the model (a member the schema
lacks is dropped by the generated code, and is reported under `lost_members`). Prints one
JSON summary on standard output: each step's status, the reward id, the export's counts, the
image sizes. Exits 1, with the summary so far, at the first step that goes wrong.
"""

import argparse
import datetime
import importlib
import json
import sys
import time
import traceback
import uuid

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"


class StepFailed(Exception):
    pass


class Journey:
    def __init__(self, package):
        self.package = package
        self.summary = {"steps": [], "lost_members": []}

    def module(self, name):
        return importlib.import_module(f"{self.package}.{name}")

    def call(self, step, operation, expected, model=None, **arguments):
        """Runs `operation.sync_detailed(**arguments)`; checks the status is one of `expected`
        and that the parsed answer is a `model` that kept every member of the JSON it came from."""
        response = operation.sync_detailed(**arguments)
        status = int(response.status_code)
        self.summary["steps"].append({"step": step, "status": status})
        if status not in expected:
            raise StepFailed(f"{step}: answered {status}, expected {expected}: {response.content[:500]!r}")
        parsed = response.parsed
        if model is not None:
            if not isinstance(parsed, model):
                raise StepFailed(f"{step}: parsed as {type(parsed).__name__}, expected {model.__name__}")
            raw = json.loads(response.content)
            for path in lost_members(raw, parsed.to_dict(), "$"):
                self.summary["lost_members"].append(f"{step}: {path}")
        return response, parsed


def lost_members(raw, kept, path):
    """Paths of object members in `raw` that the model's `to_dict()` (`kept`) does not have."""
    lost = []
    if isinstance(raw, dict) and isinstance(kept, dict):
        for key, value in raw.items():
            if key not in kept:
                lost.append(f"{path}.{key}")
            else:
                lost += lost_members(value, kept[key], f"{path}.{key}")
    elif isinstance(raw, list) and isinstance(kept, list):
        for index, (value, other) in enumerate(zip(raw, kept)):
            lost += lost_members(value, other, f"{path}[{index}]")
    return lost


def run(arguments, journey):
    package = journey.package
    client_module = importlib.import_module(package)
    models = journey.module("models")
    api = lambda name: journey.module(f"api.{name}")  # noqa: E731
    summary = journey.summary

    anonymous = client_module.Client(base_url=arguments.base_url, raise_on_unexpected_status=True)
    _, grant = journey.call(
        "sign_in_apple", api("accounts.sign_in_with_apple"), [201], models.SessionGrant, client=anonymous,
        body=models.AppleSignInRequest(
            identity_token=arguments.identity_token, nonce=arguments.nonce, name="Jisoo Kim",
            device_name="Jisoo's phone", platform=models.AppleSignInRequestPlatform.IOS,
            locale=models.AppleSignInRequestLocale.KO))
    summary["account_created"] = grant.account_created
    member = client_module.AuthenticatedClient(base_url=arguments.base_url, token=grant.access_token,
                                               raise_on_unexpected_status=True)

    _, me = journey.call("get_me", api("accounts.me"), [200], models.Profile, client=member)
    if me.display_name != "Jisoo Kim":
        raise StepFailed(f"get_me: display name {me.display_name!r}")
    _, changed = journey.call(
        "patch_me", api("accounts.update_me"), [200], models.Profile, client=member,
        body=models.ProfileRequest(display_name="지수", handle="jisoo_climbs", locale=models.ProfileRequestLocale.EN))
    if (changed.handle, changed.display_name) != ("jisoo_climbs", "지수"):
        raise StepFailed(f"patch_me: {changed.to_dict()}")
    summary["handle"] = changed.handle

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    _, meetup = journey.call(
        "create_meetup", api("meetups.create_meetup"), [201], models.Meetup, client=member,
        body=models.CreateMeetup(
            title="Evening bouldering", place_name="Seoul Forest Gym", capacity=8, time_zone="Asia/Seoul",
            starts_at=now - datetime.timedelta(minutes=1), ends_at=now + datetime.timedelta(hours=2)))
    summary["meetup_id"] = meetup.id

    _, attendance = journey.call("join", api("attendance.join_meetup"), [201], models.Attendance, client=member,
                                 id=meetup.id)
    if attendance.status.value != "going":
        raise StepFailed(f"join: {attendance.status}")

    _, code = journey.call("check_in_code", api("check_in.check_in_code"), [200], models.CheckInCode, client=member,
                           id=meetup.id)
    _, result = journey.call(
        "check_in", api("check_in.check_in"), [201], models.CheckInResult, client=member, id=meetup.id,
        body=models.MemberCheckIn(code=code.code), idempotency_key=f"journey-{uuid.uuid4()}")
    if not isinstance(result.reward, models.Reward):
        raise StepFailed("check_in: no reward")
    reward_id = result.reward.id
    summary["reward_id"] = reward_id

    # The images render in the background: the app polls the reward until they are ready.
    deadline = time.monotonic() + arguments.render_timeout
    polls = 0
    while True:
        response = api("rewards.get_reward").sync_detailed(id=reward_id, client=member)
        polls += 1
        reward = response.parsed
        if int(response.status_code) != 200 or not isinstance(reward, models.Reward):
            raise StepFailed(f"get_reward: answered {int(response.status_code)}: {response.content[:300]!r}")
        if reward.render_status.value == "ready":
            break
        if reward.render_status.value == "failed" or time.monotonic() > deadline:
            raise StepFailed(f"get_reward: render_status {reward.render_status.value} after {polls} polls")
        time.sleep(0.2)
    journey.call("get_reward", api("rewards.get_reward"), [200], models.Reward, client=member, id=reward_id)

    _, payload = journey.call("share_payload", api("sharing.share_payload"), [200], models.SharePayload,
                              client=member, id=reward_id)
    if payload.reward_id != reward_id or not isinstance(payload.images, models.RewardImages):
        raise StepFailed(f"share_payload: {payload.to_dict()}")
    images = payload.images

    types = journey.module("types")
    sizes = {}

    def download(step, operation, signature, **where):
        _, file = journey.call(step, operation, [200], client=member, **where)
        if not isinstance(file, types.File):
            raise StepFailed(f"{step}: parsed as {type(file).__name__}, not the image's bytes")
        data = file.payload.read()
        if not data.startswith(signature):
            raise StepFailed(f"{step}: {len(data)} bytes that are not the image: {data[:16]!r}")
        sizes[step] = len(data)

    download("sticker", api("rewards.sticker_image"), PNG_SIGNATURE, id=reward_id, hash_=images.sticker.hash_)
    # The sticker is stored first; the story follows: the app asks again after
    # retry_after_seconds until the payload lists it among ready_images.
    while "story" not in payload.ready_images:
        if payload.retry_after_seconds is None or time.monotonic() > deadline:
            raise StepFailed(f"share_payload: no story after the sticker, and no retry_after_seconds: {payload.to_dict()}")
        time.sleep(min(payload.retry_after_seconds, 0.2))
        payload = api("sharing.share_payload").sync_detailed(id=reward_id, client=member).parsed
        images = payload.images
    if images.story.content_type.value == "image/jpeg":
        download("story", api("rewards.story_image_jpeg"), JPEG_SIGNATURE, id=reward_id, hash_=images.story.hash_)
    else:
        download("story", api("rewards.story_image_png"), PNG_SIGNATURE, id=reward_id, hash_=images.story.hash_)
    _, catalogue = journey.call("holds", api("rewards.list_holds"), [200], models.HoldList, client=member)
    earned = next((hold for hold in catalogue.items if hold.id == reward.hold.id), None)
    if earned is None or not earned.artwork_url.endswith(f"/v1/holds/{earned.id}/artwork.png"):
        raise StepFailed(f"holds: the earned hold {reward.hold.id} is not listed with its artwork_url")
    download("hold_artwork", api("rewards.hold_artwork"), PNG_SIGNATURE, hold_id=earned.id)
    summary["image_bytes"] = sizes

    event_id = f"journey-share-{uuid.uuid4()}"
    _, event = journey.call(
        "share_event", api("sharing.record_share_event"), [201], models.ShareEvent, client=member, id=reward_id,
        body=models.ShareEventRequest(client_event_id=event_id, completed=True, target="instagram_stories"))
    summary["share_event_target"] = event.target.value

    # The logbook: the session logged on the wall with no signal, sent as one batch and sent
    # again (the retry records nothing twice); the summary; then the story redrawn with the
    # day's climbing (logbook.story_refresh_seconds after the ticks).
    story_before = images.story.hash_
    climbed_at = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    session = [("journey-1", "V3", "SEND", 3), ("journey-2", "V4", "FLASH", 1), ("journey-3", "V6", "ATTEMPT", 5)]
    batch = models.TickBatchRequest(ticks=[
        models.TickRequest(client_tick_id=tick_id, grade=grade, grade_scale=models.TickRequestGradeScale.V,
                           style=getattr(models.TickRequestStyle, style), attempts=attempts, climbed_at=climbed_at)
        for tick_id, grade, style, attempts in session])
    _, logged = journey.call("log_ticks", api("logbook.log_ticks"), [200], models.TickBatchResult, client=member, body=batch)
    if [result.status.value for result in logged.results] != ["created"] * 3:
        raise StepFailed(f"log_ticks: {logged.to_dict()}")
    if any(result.tick.meetup_id != meetup.id for result in logged.results):
        raise StepFailed(f"log_ticks: ticks climbed while checked in belong to the meetup: {logged.to_dict()}")
    _, again = journey.call("log_ticks_again", api("logbook.log_ticks"), [200], models.TickBatchResult, client=member, body=batch)
    if [result.status.value for result in again.results] != ["duplicate"] * 3:
        raise StepFailed(f"log_ticks_again: {again.to_dict()}")
    _, climbing = journey.call("logbook_summary", api("logbook.my_logbook_summary"), [200], models.LogbookSummary, client=member)
    if [(s.sends, s.flashes, s.attempts) for s in climbing.sessions] != [(2, 1, 1)]:
        raise StepFailed(f"logbook_summary: {climbing.to_dict()}")
    summary["hardest_send"] = climbing.axes[0].hardest_send.grade.display
    story_deadline = time.monotonic() + arguments.render_timeout + 30
    while True:
        response = api("sharing.share_payload").sync_detailed(id=reward_id, client=member)
        redrawn = response.parsed
        if isinstance(redrawn, models.SharePayload) and "story" in redrawn.ready_images and redrawn.images.story.hash_ != story_before:
            break
        if time.monotonic() > story_deadline:
            raise StepFailed("story_redrawn: the story was not drawn again with the day's climbing")
        time.sleep(0.5)
    journey.call("story_redrawn", api("sharing.share_payload"), [200], models.SharePayload, client=member, id=reward_id)
    summary["story_changed"] = True

    # Push notices: this phone registered, listed, one kind switched off, the phone removed.
    _, device = journey.call(
        "register_device", api("notifications.register_device"), [201], models.Device, client=member,
        body=models.DeviceRegistration(
            platform=models.DeviceRegistrationPlatform.IOS, token="a1b2c3d4e5f6a7b8", app_id="club.belay.app",
            environment=models.DeviceRegistrationEnvironment.SANDBOX, locale=models.DeviceRegistrationLocale.KO))
    _, devices = journey.call("list_devices", api("notifications.list_devices"), [200], models.DeviceList, client=member)
    if [item.id for item in devices.items] != [device.id] or not devices.items[0].current_session:
        raise StepFailed(f"list_devices: {devices.to_dict()}")
    journey.call("notification_settings", api("notifications.notification_settings"), [200], models.NotificationSettings,
                 client=member)
    _, settings = journey.call(
        "switch_off_reminders", api("notifications.update_notification_settings"), [200], models.NotificationSettings,
        client=member, body=models.NotificationSettingsChange(meetup_reminder=False))
    if settings.meetup_reminder is not False or settings.reward_ready is not True:
        raise StepFailed(f"switch_off_reminders: {settings.to_dict()}")
    journey.call("remove_device", api("notifications.remove_device"), [204], client=member, id=device.id)

    # The front desk: the member hosts the meetup they made, so they may put it on a tablet.
    _, kiosk = journey.call("create_kiosk", api("check_in.create_kiosk_link"), [201], models.KioskLink, client=member,
                            id=meetup.id)
    token = kiosk.url.rsplit("/", 1)[-1]
    journey.call("kiosk_state", api("check_in.kiosk_state"), [200], models.KioskState, client=anonymous,
                            token=token)
    _, revoked = journey.call("revoke_kiosk", api("check_in.revoke_kiosk_links"), [200], models.KioskRevocation,
                              client=member, id=meetup.id)
    if revoked.revoked != 1:
        raise StepFailed(f"revoke_kiosk: {revoked.to_dict()}")

    # Finding meetups: a meetup next week at the club's gym, found by a search with every filter,
    # the gym and a host followed, the feed, and the meetup's public page opened without a token.
    next_week = now + datetime.timedelta(days=7)
    _, listed = journey.call(
        "create_listed_meetup", api("meetups.create_meetup"), [201], models.Meetup, client=member,
        body=models.CreateMeetup(
            title="성수 볼더링 번개", gym_id=arguments.gym_id, capacity=6, starts_at=next_week,
            ends_at=next_week + datetime.timedelta(hours=3), discipline=models.CreateMeetupDiscipline.BOULDERING,
            level_min="V2", level_max="V5", tags=[models.CreateMeetupTagsItem.BEGINNER_FRIENDLY]))
    seoul_day = (next_week + datetime.timedelta(hours=9)).date()
    _, found = journey.call(
        "search_meetups", api("meetups.list_meetups"), [200], models.MeetupList, client=member,
        near=arguments.gym_location, radius_km=5.0, gym_id=arguments.gym_id, from_=seoul_day, to=seoul_day, q="볼더링",
        level="V3", discipline=models.ListMeetupsDiscipline.BOULDERING, tag=models.ListMeetupsTag.BEGINNER_FRIENDLY,
        has_spots=True, sort=models.ListMeetupsSort.DISTANCE)
    if [item.id for item in found.items] != [listed.id]:
        raise StepFailed(f"search_meetups: {[item.id for item in found.items]}, expected [{listed.id}]")
    summary["search_distance_km"] = found.items[0].distance_km
    journey.call("follow_gym", api("discovery.follow_gym"), [200], models.FollowList, client=member, id=arguments.gym_id)
    journey.call("follow_host", api("discovery.follow_host"), [200], models.FollowList, client=member, id=arguments.host_id)
    _, follows = journey.call("list_follows", api("discovery.list_follows"), [200], models.FollowList, client=member)
    summary["follows"] = [item.type_.value for item in follows.items]
    _, feed = journey.call("feed", api("discovery.feed"), [200], models.FeedList, client=member, near=arguments.gym_location)
    summary["feed"] = [[item.meetup.title, item.reason.value] for item in feed.items]
    _, published = journey.call("publish_page", api("discovery.publish_meetup_page"), [200], models.Meetup, client=member,
                                id=listed.id, body=models.PublishMeetupPage(show_host=True))
    slug = published.public_page.url.rsplit("/", 1)[-1]
    page, _ = journey.call("meetup_page", api("discovery.meetup_page"), [200], client=anonymous, slug=slug)
    summary["page_has_title"] = "성수 볼더링 번개" in page.content.decode("utf-8")
    journey.call("unfollow_host", api("discovery.unfollow_host"), [200], models.FollowList, client=member, id=arguments.host_id)

    # Safety: a report and its outcome, and blocks (an id nobody has is refused like any missing user).
    _, report = journey.call(
        "report", api("safety.file_report"), [201], models.Report, client=member,
        body=models.ReportRequest(subject_type=models.ReportRequestSubjectType.MEETUP, subject_id=meetup.id,
                                  reason=models.ReportRequestReason.SPAM, note="Selling coins at the wall"))
    _, reports = journey.call("my_reports", api("safety.list_my_reports"), [200], models.ReportList, client=member)
    if [item.id for item in reports.items] != [report.id] or reports.items[0].status.value != "open":
        raise StepFailed(f"my_reports: {reports.to_dict()}")
    journey.call("block_unknown", api("safety.block_member"), [404], models.Problem, client=member, user_id=987654321)

    # A real second member signs in and makes a meetup; the first finds it, blocks its host (the
    # `host_id` of a meetup is the member to block), and it is gone from their list and search,
    # and joining it is refused in words that say nothing of the block; lifting the block brings it back.
    _, second_grant = journey.call(
        "sign_in_second", api("accounts.sign_in_with_apple"), [201], models.SessionGrant, client=anonymous,
        body=models.AppleSignInRequest(
            identity_token=arguments.second_identity_token, nonce=arguments.second_nonce, name="Minho Park",
            device_name="Minho's phone", platform=models.AppleSignInRequestPlatform.ANDROID,
            locale=models.AppleSignInRequestLocale.KO))
    second = client_module.AuthenticatedClient(base_url=arguments.base_url, token=second_grant.access_token,
                                               raise_on_unexpected_status=True)
    crag_day = now + datetime.timedelta(days=9)
    _, strangers = journey.call(
        "second_creates_meetup", api("meetups.create_meetup"), [201], models.Meetup, client=second,
        body=models.CreateMeetup(
            title="북한산 인수봉 등반", place_name="Bukhansan Insubong", capacity=4, time_zone="Asia/Seoul",
            starts_at=crag_day, ends_at=crag_day + datetime.timedelta(hours=6)))

    def finds(step, expected):
        """Lists the first member's upcoming meetups and searches the second's title; `expected`
        says whether the second member's meetup must be in both."""
        _, listed_now = journey.call(f"list_{step}", api("meetups.list_meetups"), [200], models.MeetupList, client=member,
                                     limit=100)
        _, searched = journey.call(f"search_{step}", api("meetups.list_meetups"), [200], models.MeetupList, client=member,
                                   q="인수봉")
        found = [strangers.id in [item.id for item in page.items] for page in (listed_now, searched)]
        if found != [expected, expected]:
            raise StepFailed(f"{step}: the second member's meetup {strangers.id} in the list and the search: {found}, expected {expected}")
        return searched

    found_before = finds("before_block", True)
    host_to_block = next(item.host_id for item in found_before.items if item.id == strangers.id)
    if host_to_block == me.id:
        raise StepFailed("search_before_block: the second member's meetup names the first member as its host")
    journey.call("block_member", api("safety.block_member"), [201], models.BlockState, client=member, user_id=host_to_block)
    _, blocks = journey.call("list_blocks", api("safety.list_blocks"), [200], models.BlockedMemberList, client=member)
    if [item.user_id for item in blocks.items] != [host_to_block]:
        raise StepFailed(f"list_blocks: {blocks.to_dict()}")
    finds("after_block", False)
    _, refused = journey.call("join_blocked", api("attendance.join_meetup"), [403], models.Problem, client=member, id=strangers.id)
    if getattr(refused.code, "value", refused.code) != "not_permitted" or "block" in (refused.detail or "").lower():
        raise StepFailed(f"join_blocked: {refused.to_dict()}")
    journey.call("unblock_member", api("safety.unblock_member"), [200], models.BlockState, client=member, user_id=host_to_block)
    finds("after_unblock", True)

    _, export = journey.call("export", api("accounts.export_me"), [200], models.AccountExport, client=member)
    summary["export"] = {
        "format": export.format_.value, "handle": export.profile.handle, "identities": len(export.identities),
        "sessions": len(export.sessions), "attendances": len(export.attendances), "rewards": len(export.rewards),
        "share_events": len(export.share_events), "reward_ids": [item.id for item in export.rewards],
        "reports": len(export.reports), "blocks": len(export.blocks),
    }

    journey.call("delete_me", api("accounts.delete_me"), [204], client=member)
    journey.call("get_me_after_delete", api("accounts.me"), [401], models.Problem, client=member)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--package", required=True, help="the generated package's directory")
    parser.add_argument("--identity-token", required=True, help="an Apple identity token for a new member")
    parser.add_argument("--nonce", required=True, help="the raw nonce whose SHA-256 the token carries")
    parser.add_argument("--render-timeout", type=float, default=120)
    parser.add_argument("--gym-id", type=int, required=True, help="a gym in Seoul the member's second meetup is at")
    parser.add_argument("--gym-location", required=True, help="that gym's LAT,LON")
    parser.add_argument("--host-id", type=int, required=True, help="a host the member follows")
    parser.add_argument("--second-identity-token", required=True, help="an Apple identity token for a second new member, the one blocked")
    parser.add_argument("--second-nonce", required=True, help="the raw nonce whose SHA-256 the second token carries")
    arguments = parser.parse_args()

    package_path = arguments.package.rstrip("/")
    parent, _, name = package_path.rpartition("/")
    sys.path.insert(0, parent or ".")
    journey = Journey(name)
    try:
        run(arguments, journey)
    except StepFailed as failure:
        journey.summary["failure"] = str(failure)
        print(json.dumps(journey.summary, ensure_ascii=False))
        return 1
    except Exception as failure:  # the generated code refused an answer: it does not fit the document
        traceback.print_exc()
        journey.summary["failure"] = f"{type(failure).__name__}: {failure}"
        print(json.dumps(journey.summary, ensure_ascii=False))
        return 1
    print(json.dumps(journey.summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
