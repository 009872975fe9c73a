"""An S3 server on loopback for the object-store tests: moto's server mode, with requests'
signatures checked once the fixture has made its user, key and bucket. moto does not check
presigned URLs itself, so this fixture does, with botocore's own signer: a `GET` whose query
carries `X-Amz-Signature` is signed again by botocore at the URL's `X-Amz-Date` and must match
and be unexpired (else 403), and is then handed to moto signed with the key.

Prints `key ACCESS_KEY_ID SECRET_ACCESS_KEY`, `bucket NAME`, then `listening PORT`, and serves
until killed. A request signed with any other key, or signed wrongly, is refused 403 like AWS
does (InvalidAccessKeyId, SignatureDoesNotMatch)."""

import argparse
import datetime
import json
import sys
import threading
from unittest import mock
from urllib.parse import parse_qs

import boto3
import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
import moto.settings
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server


class PresignedURLs:
    """Checks presigned GETs with botocore, then passes them on signed with the key."""

    def __init__(self, app, region):
        self.app = app
        self.region = region
        self.keys = {}

    def refuse(self, start_response, code, message):
        start_response("403 Forbidden", [("Content-Type", "application/xml")])
        return [f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()]

    def __call__(self, environ, start_response):
        query = parse_qs(environ.get("QUERY_STRING", ""))
        if environ["REQUEST_METHOD"] != "GET" or "X-Amz-Signature" not in query:
            return self.app(environ, start_response)
        try:
            key_id = query["X-Amz-Credential"][0].split("/")[0]
            signed_at = datetime.datetime.strptime(query["X-Amz-Date"][0], "%Y%m%dT%H%M%SZ")
            expires = int(query["X-Amz-Expires"][0])
        except (KeyError, ValueError, IndexError):
            return self.refuse(start_response, "AuthorizationQueryParametersError", "incomplete query")
        if key_id not in self.keys:
            return self.refuse(start_response, "InvalidAccessKeyId", "unknown key")
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        if now > signed_at + datetime.timedelta(seconds=expires):
            return self.refuse(start_response, "AccessDenied", "Request has expired")
        credentials = Credentials(key_id, self.keys[key_id])
        path = environ.get("REQUEST_URI", environ.get("RAW_URI", environ["PATH_INFO"])).split("?")[0]
        url = f"http://{environ['HTTP_HOST']}{path}"
        reference = AWSRequest(method="GET", url=url)
        with mock.patch("botocore.auth.get_current_datetime", return_value=signed_at):
            botocore.auth.S3SigV4QueryAuth(credentials, "s3", self.region, expires=expires).add_auth(reference)
        expected = parse_qs(reference.url.split("?", 1)[1])["X-Amz-Signature"][0]
        if expected != query["X-Amz-Signature"][0]:
            return self.refuse(start_response, "SignatureDoesNotMatch", "botocore signs this URL differently")
        forwarded = AWSRequest(method="GET", url=url)
        botocore.auth.S3SigV4Auth(credentials, "s3", self.region).add_auth(forwarded)
        environ = dict(environ)
        environ["QUERY_STRING"] = ""
        for name, value in forwarded.headers.items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        return self.app(environ, start_response)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bucket", default="belay-images")
    parser.add_argument("--region", default="us-east-1")
    arguments = parser.parse_args()

    # Anything goes while the fixture sets itself up; every request after that is checked.
    moto.settings.INITIAL_NO_AUTH_ACTION_COUNT = float("inf")
    application = PresignedURLs(DomainDispatcherApplication(create_backend_app), arguments.region)
    server = make_server("127.0.0.1", 0, application, True, request_handler=MotoRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    endpoint = f"http://127.0.0.1:{port}"
    setup = dict(endpoint_url=endpoint, region_name=arguments.region,
                 aws_access_key_id="setup", aws_secret_access_key="setup")
    iam = boto3.client("iam", **setup)
    iam.create_user(UserName="belay")
    iam.put_user_policy(UserName="belay", PolicyName="images", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
    }))
    key = iam.create_access_key(UserName="belay")["AccessKey"]
    s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}), **setup)
    s3.create_bucket(Bucket=arguments.bucket)
    application.keys[key["AccessKeyId"]] = key["SecretAccessKey"]
    moto.settings.INITIAL_NO_AUTH_ACTION_COUNT = 0

    print(f"key {key['AccessKeyId']} {key['SecretAccessKey']}", flush=True)
    print(f"bucket {arguments.bucket}", flush=True)
    print(f"listening {port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
