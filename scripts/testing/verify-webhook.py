"""Verifies one webhook with the Standard Webhooks reference library.

Reads {"secret": …, "headers": {…}, "body": "…"} as JSON on standard input; prints the
verified payload's type and exits 0, or prints the library's error and exits 1.
"""
import json
import sys

from standardwebhooks.webhooks import Webhook

request = json.load(sys.stdin)
try:
    payload = Webhook(request["secret"]).verify(request["body"], request["headers"])
except Exception as error:  # the library raises WebhookVerificationError
    print(f"refused: {error}")
    sys.exit(1)
print(f"verified {payload['type']}")
