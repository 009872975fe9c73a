"""An SMTP server on loopback for Belay's tests (aiosmtpd), reading each message with
Python's own `email` package.

    smtp-capture.py [--user NAME --password SECRET] [--spool DIR]

Prints `listening PORT` once it listens on 127.0.0.1 (a free port), then one JSON line per
message received: mail_from, rcpt_tos, subject (decoded), message_id, date,
content_language, text and html (the decoded parts), headers, whether the session logged
in, the longest line, and the raw message. With --user, AUTH PLAIN and LOGIN are required
and accepted for that user and password only; over plain TCP, since this is loopback and
offers no STARTTLS (a client that requires TLS must refuse it). With --spool, each message's
line is also written to DIR/NNNNNN.json (numbered from 1, renamed into place when whole), for
another process of the test (a browser driver) to read the mail it waits for.
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

parser = argparse.ArgumentParser()
parser.add_argument("--user")
parser.add_argument("--password", default="")
parser.add_argument("--spool")
options = parser.parse_args()


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and options.user is not None
          and auth_data.login == options.user.encode() and auth_data.password == options.password.encode())
    return AuthResult(success=ok, handled=False)


def part(message, kind):
    body = message.get_body((kind,))
    return body.get_content() if body is not None else None


class Handler:
    received = 0

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        lines = raw.split(b"\r\n")
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "subject": str(message["subject"]) if message["subject"] is not None else None,
            "from": str(message["from"]) if message["from"] is not None else None,
            "to": str(message["to"]) if message["to"] is not None else None,
            "message_id": message["message-id"],
            "date": message["date"],
            "content_language": message["content-language"],
            "text": part(message, "plain"),
            "html": part(message, "html"),
            "headers": {name: str(value) for name, value in message.items()},
            "authenticated": bool(session.authenticated),
            "longest_line": max(len(line) for line in lines),
            "bare_line_feeds": raw.replace(b"\r\n", b"").count(b"\n"),
            "raw": raw.decode("utf-8", "replace"),
        }
        line = json.dumps(record)
        if options.spool:
            self.received += 1
            path = os.path.join(options.spool, "%06d.json" % self.received)
            with open(path + ".partial", "w") as spooled:
                spooled.write(line)
            os.replace(path + ".partial", path)
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        return "250 Message accepted for delivery"


async def main():
    loop = asyncio.get_running_loop()
    handler = Handler()
    server = await loop.create_server(
        lambda: SMTP(handler, hostname="capture.test", authenticator=authenticator,
                     auth_required=options.user is not None, auth_require_tls=False),
        "127.0.0.1", 0)
    sys.stdout.write("listening %d\n" % server.sockets[0].getsockname()[1])
    sys.stdout.flush()
    await server.serve_forever()


asyncio.run(main())
