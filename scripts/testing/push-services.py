"""Apple's and Google's push services on loopback for Belay's tests, over HTTP/2 with TLS.

    push-services.py --dir DIR [--team-id ID --key-id ID --project-id ID]

Makes a certificate authority and a server certificate for 127.0.0.1 (DIR/ca.pem), the team's
APNs token key (DIR/apns-key.p8, EC P-256) and an FCM service account (DIR/fcm-service-account.json,
RSA, its token_uri on this server), then serves with hypercorn:

  TLS port (HTTP/2 via ALPN; HTTP/1.1 is refused with 505):
    POST /3/device/{token}                     APNs: the provider token (ES256, kid, iss team,
                                               iat within the hour) checked with the public key,
                                               the apns-* headers and the JSON payload recorded
    POST /token                                Google's OAuth token endpoint: the JWT-bearer grant,
                                               its assertion (RS256, iss client_email, aud token_uri,
                                               the firebase.messaging scope) checked
    POST /v1/projects/{project}/messages:send  FCM HTTP v1: the bearer access token checked
  Plain control port (HTTP/1.1):
    GET  /received      {"apns": [...], "fcm": [...], "token_grants": N, "provider_tokens": [...]}
    GET  /counts        {kind: notices received}
    GET  /ready-times   {reward id: when its first reward_ready notice arrived at APNs}
    POST /answer        {"service": "apns"|"fcm", "token": T, "status": S, "reason": R,
                         "retry_after": N?, "timestamp": MS?, "stall_seconds": W?, "times": K}: the next K
                        requests for T get that answer (APNs: with `timestamp`, milliseconds since 1970,
                        in its body); with `stall_seconds`, only after that long (a stream that stalls
                        while the others of its connection are answered; status 200 unless given)
    POST /expire-provider-tokens   {"before": T?}: APNs answers 403 ExpiredProviderToken to tokens
                                   issued before T (seconds since 1970; now when absent)
    POST /revoke-access-tokens     FCM answers 401 to every access token granted so far

  Cleartext port: the same services over HTTP/2 with prior knowledge (h2c).

Prints `listening CONTROL_PORT`, then `plain PLAIN_PORT` and `tls TLS_PORT`.
"""
import argparse
import asyncio
import datetime
import ipaddress
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config

lock = threading.Lock()
state = {"apns": [], "fcm": [], "token_grants": 0, "provider_tokens": [], "answers": {}, "expired_before": 0, "access_tokens": set()}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_pki(directory):
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Belay test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
          .not_valid_after(now + datetime.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    with open(os.path.join(directory, "ca.pem"), "wb") as f:
        f.write(ca.public_bytes(pem))
    with open(os.path.join(directory, "server.pem"), "wb") as f:
        f.write(cert.public_bytes(pem))
    with open(os.path.join(directory, "server-key.pem"), "wb") as f:
        f.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def private_pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--team-id", default="TEAM123456")
    parser.add_argument("--key-id", default="PUSHKEY123")
    parser.add_argument("--project-id", default="belay-test")
    args = parser.parse_args()
    make_pki(args.dir)
    tls_port = free_port()
    plain_port = free_port()
    apns_key = ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(args.dir, "apns-key.p8"), "wb") as f:
        f.write(private_pem(apns_key))
    fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token_uri = f"https://127.0.0.1:{tls_port}/token"
    account = {"type": "service_account", "project_id": args.project_id, "private_key_id": "k1",
               "private_key": private_pem(fcm_key).decode(), "client_email": "belay-push@belay-test.iam.gserviceaccount.com",
               "token_uri": token_uri}
    with open(os.path.join(args.dir, "fcm-service-account.json"), "w") as f:
        json.dump(account, f)
    apns_public = apns_key.public_key()
    fcm_public = fcm_key.public_key()

    def next_answer(service, token):
        with lock:
            queue = state["answers"].get((service, token))
            if queue:
                answer = queue[0]
                answer["times"] -= 1
                if answer["times"] <= 0:
                    queue.pop(0)
                return answer
        return None

    async def read_body(receive):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                return body

    async def respond(send, status, body=b"", headers=()):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")] + [(k.encode(), v.encode()) for k, v in headers]})
        await send({"type": "http.response.body", "body": body})

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = await read_body(receive)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        path = scope["path"]
        if scope.get("http_version") != "2":
            return await respond(send, 505, b'{"reason":"HTTP/2 only"}')
        if path.startswith("/3/device/"):
            return await apns(path[len("/3/device/"):], headers, body, send, scope.get("client"))
        if path == "/token":
            types = [v.decode() for k, v in scope["headers"] if k.decode().lower() == "content-type"]
            if types != ["application/x-www-form-urlencoded"]:
                return await respond(send, 400, json.dumps({"error": "invalid_request",
                                                            "error_description": f"Content-Type {types}"}).encode())
            return await token(body, send)
        if path.startswith(f"/v1/projects/{args.project_id}/messages:send"):
            return await fcm(headers, body, send)
        await respond(send, 404, b'{"reason":"not found"}')

    async def apns(device, headers, body, send, client):
        auth = headers.get("authorization", "")
        record = {"token": device, "headers": {k: v for k, v in headers.items() if k.startswith("apns-")}, "http_version": "2",
                  "payload": None, "verified": False, "time": time.time(), "client_port": client[1] if client else None}
        try:
            record["payload"] = json.loads(body)
        except ValueError:
            pass
        reason = None
        if not auth.startswith("bearer "):
            reason = "MissingProviderToken"
        else:
            provider = auth[len("bearer "):]
            try:
                header = jwt.get_unverified_header(provider)
                claims = jwt.decode(provider, apns_public, algorithms=["ES256"], options={"verify_exp": False, "verify_iat": False})
                if header.get("kid") != args.key_id or claims.get("iss") != args.team_id or "iat" not in claims:
                    reason = "InvalidProviderToken"
                elif claims["iat"] < state["expired_before"]:
                    reason = "ExpiredProviderToken"
                else:
                    record["verified"] = True
                    with lock:
                        if provider not in state["provider_tokens"]:
                            state["provider_tokens"].append(provider)
            except jwt.PyJWTError:
                reason = "InvalidProviderToken"
        missing = [h for h in ("apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id") if h not in headers]
        with lock:
            state["apns"].append(record)
        if reason:
            return await respond(send, 403, json.dumps({"reason": reason}).encode())
        if missing or not isinstance(record["payload"], dict) or "aps" not in record["payload"]:
            return await respond(send, 400, json.dumps({"reason": "BadRequest", "missing": missing}).encode())
        answer = next_answer("apns", device)
        if answer and answer.get("stall_seconds"):
            await asyncio.sleep(answer["stall_seconds"])
        if answer and answer.get("status", 200) != 200:
            extra = [("retry-after", str(answer["retry_after"]))] if answer.get("retry_after") is not None else []
            said = {"reason": answer.get("reason", "")}
            if answer.get("timestamp") is not None:
                said["timestamp"] = answer["timestamp"]
            return await respond(send, answer["status"], json.dumps(said).encode(), extra)
        await respond(send, 200, b"", [("apns-id", "00000000-0000-0000-0000-%012d" % len(state["apns"]))])

    async def token(body, send):
        form = parse_qs(body.decode())
        try:
            assert form.get("grant_type") == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
            claims = jwt.decode(form["assertion"][0], fcm_public, algorithms=["RS256"], audience=token_uri,
                                options={"verify_exp": False, "verify_iat": False, "verify_nbf": False})
            assert claims["iss"] == account["client_email"] and claims["scope"] == "https://www.googleapis.com/auth/firebase.messaging"
        except Exception as error:  # any refusal is invalid_grant, as Google answers
            return await respond(send, 400, json.dumps({"error": "invalid_grant", "error_description": str(error)}).encode())
        with lock:
            state["token_grants"] += 1
            access = "ya29.test-%d" % state["token_grants"]
            state["access_tokens"].add(access)
        await respond(send, 200, json.dumps({"access_token": access, "expires_in": 3599, "token_type": "Bearer"}).encode())

    async def fcm(headers, body, send):
        auth = headers.get("authorization", "")
        if not auth.startswith("Bearer ") or auth[len("Bearer "):] not in state["access_tokens"]:
            return await respond(send, 401, json.dumps({"error": {"code": 401, "status": "UNAUTHENTICATED"}}).encode())
        try:
            message = json.loads(body)["message"]
        except (ValueError, KeyError):
            return await respond(send, 400, json.dumps({"error": {"code": 400, "status": "INVALID_ARGUMENT"}}).encode())
        with lock:
            state["fcm"].append({"message": message, "time": time.time()})
        answer = next_answer("fcm", message.get("token"))
        if answer and answer.get("stall_seconds"):
            await asyncio.sleep(answer["stall_seconds"])
        if answer and answer.get("status", 200) != 200:
            error = {"code": answer["status"], "status": answer.get("reason", "")}
            if answer.get("error_code"):
                error["details"] = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": answer["error_code"]}]
            extra = [("retry-after", str(answer["retry_after"]))] if answer.get("retry_after") is not None else []
            return await respond(send, answer["status"], json.dumps({"error": error}).encode(), extra)
        await respond(send, 200, json.dumps({"name": f"projects/{args.project_id}/messages/{len(state['fcm'])}"}).encode())

    class Control(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, value):
            data = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            with lock:
                if self.path.startswith("/counts"):
                    counts = {}
                    for record in state["apns"]:
                        kind = (record.get("payload") or {}).get("kind", "")
                        counts[kind] = counts.get(kind, 0) + 1
                    for record in state["fcm"]:
                        kind = record["message"].get("data", {}).get("kind", "")
                        counts[kind] = counts.get(kind, 0) + 1
                    return self.answer(counts)
                if self.path.startswith("/ready-times"):
                    # Each reward's first "sticker ready" notice: reward id -> when it arrived.
                    first = {}
                    for record in state["apns"]:
                        payload = record.get("payload") or {}
                        if payload.get("kind") == "reward_ready" and payload.get("reward_id") not in first:
                            first[payload.get("reward_id")] = record["time"]
                    return self.answer(first)
                self.answer({k: state[k] for k in ("apns", "fcm", "token_grants", "provider_tokens")})

        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            with lock:
                if self.path == "/answer":
                    state["answers"].setdefault((request["service"], request["token"]), []).append(dict(request, times=request.get("times", 1)))
                elif self.path == "/expire-provider-tokens":
                    state["expired_before"] = request.get("before", time.time() + 1)
                elif self.path == "/revoke-access-tokens":
                    state["access_tokens"] = set()
            self.answer({"ok": True})

    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    threading.Thread(target=control.serve_forever, daemon=True).start()

    config = Config()
    config.bind = [f"127.0.0.1:{tls_port}"]
    config.certfile = os.path.join(args.dir, "server.pem")
    config.keyfile = os.path.join(args.dir, "server-key.pem")
    config.alpn_protocols = ["h2"]
    # The same services in cleartext HTTP/2 with prior knowledge (h2c), as a relay or an
    # egress proxy on the club's network answers them.
    config.insecure_bind = [f"127.0.0.1:{plain_port}"]
    config.loglevel = "WARNING"
    config.accesslog = None
    print(f"listening {control.server_address[1]}", flush=True)

    async def run():
        loop = asyncio.get_running_loop()
        loop.call_later(0.5, lambda: print(f"plain {plain_port}", flush=True))
        loop.call_later(0.5, lambda: print(f"tls {tls_port}", flush=True))
        await serve(app, config)

    asyncio.run(run())


if __name__ == "__main__":
    main()
