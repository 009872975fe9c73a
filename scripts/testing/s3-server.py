"""An S3 server on loopback for the object-store tests: moto's server mode, with requests'
signatures checked once the fixture has made its user, key and bucket. moto does not check
presigned URLs itself, so this fixture does, with botocore's own signer: a `GET` whose query
carries `X-Amz-Signature` is signed again by botocore at the URL's `X-Amz-Date` and must match
and be unexpired (else 403), and is then handed to moto signed with the key.

Prints `key ACCESS_KEY_ID SECRET_ACCESS_KEY`, `bucket NAME`, then `listening PORT`, and serves
until killed. A request signed with any other key, or signed wrongly, is refused 403 like AWS
does (InvalidAccessKeyId, SignatureDoesNotMatch).

With `--credentials`, the platform's temporary credentials too, all issued by moto's STS for a
role allowed `s3:*` (so moto checks their session token: a request signed with a temporary key
but without `x-amz-security-token` is refused): `AssumeRoleWithWebIdentity` on the same port
(the token must be `--web-identity-token`), and on a second port (`credentials PORT`) EC2's
instance metadata service (IMDSv2: a session token by PUT, then the role and its credentials)
and an ECS container endpoint (`GET /ecs/credentials`, `Authorization` must be
`--container-authorization`). Issued credentials expire `--credential-seconds` after they are
issued, and the store then refuses them (400 ExpiredToken) as AWS does; moto alone never would.
`GET /__credentials/stats` on the second port counts what was issued."""

import argparse
import datetime
import io
import json
import re
import secrets
import sys
import threading
import time
from unittest import mock
from urllib.parse import parse_qs, urlencode

import boto3
import botocore
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
        # Temporary keys issued by STS: key id -> expiry (seconds since the epoch).
        self.expiries = {}
        self.web_identity_token = None
        self.sts_key = None
        self.credential_seconds = 3600
        self.issued = 0
        self.lock = threading.Lock()

    def refuse(self, start_response, code, message):
        start_response("403 Forbidden", [("Content-Type", "application/xml")])
        return [f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()]

    def expired(self, key_id):
        with self.lock:
            expiry = self.expiries.get(key_id)
        return expiry is not None and time.time() >= expiry

    def assume_role_with_web_identity(self, environ, start_response):
        """Checks the token, lets moto's STS issue the credentials, then dates their expiry."""
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length)
        form = parse_qs(body.decode())
        if self.web_identity_token is not None and form.get("WebIdentityToken", [""])[0] != self.web_identity_token:
            start_response("400 Bad Request", [("Content-Type", "text/xml")])
            return [b"<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>wrong token</Message></Error></ErrorResponse>"]
        # AWS takes this call unsigned; moto with its checks on wants a signature, so the
        # fixture signs it with a key of its own that may call STS.
        environ = dict(environ)
        environ["wsgi.input"] = io.BytesIO(body)
        signed = AWSRequest(method="POST", url=f"http://{environ['HTTP_HOST']}/", data=body,
                            headers={"Content-Type": environ.get("CONTENT_TYPE", "application/x-www-form-urlencoded")})
        botocore.auth.SigV4Auth(Credentials(*self.sts_key), "sts", "us-east-1").add_auth(signed)
        for name, value in signed.headers.items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return lambda data: None

        answer = b"".join(self.app(environ, capture))
        text = answer.decode()
        if captured["status"].startswith("200"):
            key = re.search(r"<AccessKeyId>([^<]+)</AccessKeyId>", text).group(1)
            secret = re.search(r"<SecretAccessKey>([^<]+)</SecretAccessKey>", text).group(1)
            expiry = time.time() + self.credential_seconds
            stamp = datetime.datetime.fromtimestamp(expiry, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            text = re.sub(r"<Expiration>[^<]+</Expiration>", f"<Expiration>{stamp}</Expiration>", text)
            with self.lock:
                self.keys[key] = secret
                self.expiries[key] = expiry
                self.issued += 1
        answer = text.encode()
        headers = [(name, value) for name, value in captured["headers"] if name.lower() != "content-length"]
        start_response(captured["status"], headers + [("Content-Length", str(len(answer)))])
        return [answer]

    def __call__(self, environ, start_response):
        query = parse_qs(environ.get("QUERY_STRING", ""))
        if environ["REQUEST_METHOD"] == "POST" and not environ.get("HTTP_AUTHORIZATION") and "X-Amz-Signature" not in query:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length)
            environ["wsgi.input"] = io.BytesIO(body)
            if b"Action=AssumeRoleWithWebIdentity" in body:
                return self.assume_role_with_web_identity(environ, start_response)
        credential = re.search(r"Credential=([^/]+)/", environ.get("HTTP_AUTHORIZATION", ""))
        key_id = credential.group(1) if credential else query.get("X-Amz-Credential", [""])[0].split("/")[0]
        if key_id and self.expired(key_id):
            start_response("400 Bad Request", [("Content-Type", "application/xml")])
            return [b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>"]
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
        token = query.get("X-Amz-Security-Token", [None])[0]
        credentials = Credentials(key_id, self.keys[key_id], token)
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


class PlatformCredentials:
    """EC2's instance metadata service (IMDSv2) and an ECS container endpoint, handing out
    credentials moto's STS issues for the role (through the store's own port, so they are
    dated and checked like web identity's)."""

    def __init__(self, endpoint, role_arn, token, container_authorization):
        self.sts = boto3.client("sts", endpoint_url=endpoint, region_name="us-east-1",
                                config=Config(signature_version=botocore.UNSIGNED))
        self.role_arn = role_arn
        self.web_identity_token = token
        self.container_authorization = container_authorization
        self.role_name = role_arn.split("/")[-1]
        self.session_tokens = set()
        self.counts = {"imds_tokens": 0, "imds_credentials": 0, "imds_refused": 0, "container_credentials": 0, "container_refused": 0}
        self.lock = threading.Lock()

    def count(self, name):
        with self.lock:
            self.counts[name] += 1

    def issue(self):
        answer = self.sts.assume_role_with_web_identity(RoleArn=self.role_arn, RoleSessionName="platform",
                                                        WebIdentityToken=self.web_identity_token)
        issued = answer["Credentials"]
        return {"Code": "Success", "Type": "AWS-HMAC", "LastUpdated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "AccessKeyId": issued["AccessKeyId"], "SecretAccessKey": issued["SecretAccessKey"],
                "Token": issued["SessionToken"],
                "Expiration": issued["Expiration"].astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}

    def __call__(self, environ, start_response):
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]

        def answer(status, body, kind="text/plain"):
            data = body.encode() if isinstance(body, str) else body
            start_response(status, [("Content-Type", kind), ("Content-Length", str(len(data)))])
            return [data]

        if path == "/__credentials/stats":
            with self.lock:
                return answer("200 OK", json.dumps(self.counts), "application/json")
        if path == "/latest/api/token":
            if method != "PUT":
                return answer("405 Method Not Allowed", "")
            if "HTTP_X_AWS_EC2_METADATA_TOKEN_TTL_SECONDS" not in environ:
                return answer("400 Bad Request", "missing X-aws-ec2-metadata-token-ttl-seconds")
            token = secrets.token_urlsafe(24)
            with self.lock:
                self.session_tokens.add(token)
            self.count("imds_tokens")
            return answer("200 OK", token)
        if path.startswith("/latest/meta-data/iam/security-credentials/"):
            with self.lock:
                known = environ.get("HTTP_X_AWS_EC2_METADATA_TOKEN") in self.session_tokens
            if not known:
                self.count("imds_refused")
                return answer("401 Unauthorized", "")
            role = path[len("/latest/meta-data/iam/security-credentials/"):]
            if role == "":
                return answer("200 OK", self.role_name)
            if role != self.role_name:
                return answer("404 Not Found", "")
            self.count("imds_credentials")
            return answer("200 OK", json.dumps(self.issue()), "application/json")
        if path == "/ecs/credentials":
            if environ.get("HTTP_AUTHORIZATION") != self.container_authorization:
                self.count("container_refused")
                return answer("403 Forbidden", "")
            self.count("container_credentials")
            document = self.issue()
            document.pop("Code"), document.pop("Type"), document.pop("LastUpdated")
            document["RoleArn"] = self.role_arn
            return answer("200 OK", json.dumps(document), "application/json")
        return answer("404 Not Found", "")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bucket", default="belay-images")
    parser.add_argument("--region", default="us-east-1")
    parser.add_argument("--credentials", action="store_true")
    parser.add_argument("--credential-seconds", type=int, default=3600)
    parser.add_argument("--web-identity-token", default="belay-web-identity-token")
    parser.add_argument("--container-authorization", default="belay-container-authorization")
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
    if arguments.credentials:
        role = iam.create_role(RoleName="belay-images", AssumeRolePolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": {"Federated": "belay"}, "Action": "sts:AssumeRoleWithWebIdentity"}],
        }))["Role"]
        iam.put_role_policy(RoleName="belay-images", PolicyName="images", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
        }))
        iam.create_user(UserName="sts")
        iam.put_user_policy(UserName="sts", PolicyName="sts", PolicyDocument=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "sts:*", "Resource": "*"}],
        }))
        sts_key = iam.create_access_key(UserName="sts")["AccessKey"]
        application.sts_key = (sts_key["AccessKeyId"], sts_key["SecretAccessKey"])
        application.web_identity_token = arguments.web_identity_token
        application.credential_seconds = arguments.credential_seconds
    moto.settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
    if arguments.credentials:
        platform = PlatformCredentials(endpoint, role["Arn"], arguments.web_identity_token, arguments.container_authorization)
        platform_server = make_server("127.0.0.1", 0, platform, True)
        threading.Thread(target=platform_server.serve_forever, daemon=True).start()
        print(f"role {role['Arn']}", flush=True)
        print(f"credentials {platform_server.server_address[1]}", flush=True)

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
