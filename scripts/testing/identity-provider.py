"""A sign-in provider on loopback for Belay's tests: Apple's and Google's published keys,
ID tokens signed by PyJWT, and Apple's token and revocation endpoints.

    identity-provider.py [--apple-team-public-key FILE | --generate-apple-team-key FILE]
                         [--apple-team-id ID --apple-key-id ID --apple-client-id ID]

Prints `listening PORT` once it listens on 127.0.0.1 (a free port). At start it makes an RSA
key (kid "rsa-1") and an EC P-256 key (kid "ec-1"). Endpoints:

  GET  /jwks           the public keys as a JWKS (503 while down); counts fetches
  POST /sign           {claims, alg, kid, key?, header_overrides?} -> {"token"}: signed by PyJWT
                       with key `key` (default `kid`); an override of null removes that header
                       member; alg "none" is unsigned, and "HS256" uses
                       the RSA key's public PEM as the HMAC secret (the key-confusion attack)
  POST /rotate         {kind: "rsa"|"ec", retire: [kid...]} -> {"kid"}: a new key served from now on
  POST /jwks-body      {body: "..."|null}: serve this text instead of the keys (null: the keys again)
  POST /down, /up      the JWKS answers 503 while down
  POST /slow           {"seconds"}: the JWKS answers only after that long (0: at once)
  GET  /stats          {"jwks_fetches": N}
  POST /auth/token     Apple's code exchange: verifies the client secret (ES256, signed with the
                       team key, iss team, sub client, aud https://appleid.apple.com, kid key id)
  POST /auth/revoke    Apple's revocation, with the same check; records the token
  GET  /revoked        the tokens revoked
  GET  /apple-requests every request to /auth/*, with whether its client secret verified

The client secret's exp is checked against its iat (at most six months), not against this
machine's clock: the tests run Belay on a clock of their own.
"""
import argparse
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

parser = argparse.ArgumentParser()
parser.add_argument("--apple-team-public-key")
parser.add_argument("--generate-apple-team-key")
parser.add_argument("--apple-team-id", default="TEAM123456")
parser.add_argument("--apple-key-id", default="KEY1234567")
parser.add_argument("--apple-client-id", default="club.example.belay")
options = parser.parse_args()

lock = threading.Lock()
keys = {}  # kid -> (alg, private key)
counters = {"rsa": 1, "ec": 1}
state = {"down": False, "jwks_body": None, "jwks_fetches": 0, "slow": 0}
revoked = []
apple_requests = []


def new_key(kind):
    if kind == "rsa":
        return "RS256", rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return "ES256", ec.generate_private_key(ec.SECP256R1())


keys["rsa-1"] = new_key("rsa")
keys["ec-1"] = new_key("ec")

team_public_key = None
if options.generate_apple_team_key:
    team_key = ec.generate_private_key(ec.SECP256R1())
    with open(options.generate_apple_team_key, "wb") as file:
        file.write(team_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    team_public_key = team_key.public_key()
elif options.apple_team_public_key:
    with open(options.apple_team_public_key, "rb") as file:
        team_public_key = serialization.load_pem_public_key(file.read())


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwks():
    entries = []
    for kid, (alg, private) in keys.items():
        algorithm = RSAAlgorithm if alg == "RS256" else ECAlgorithm
        entry = json.loads(algorithm.to_jwk(private.public_key()))
        entry.update({"kid": kid, "use": "sig", "alg": alg})
        entries.append(entry)
    return {"keys": entries}


def sign(request):
    claims = request.get("claims", {})
    alg = request.get("alg", "RS256")
    kid = request.get("kid", "rsa-1" if alg != "ES256" else "ec-1")
    header = {"alg": alg, "kid": kid, "typ": "JWT"}
    for name, value in (request.get("header_overrides") or {}).items():
        if value is None:
            header.pop(name, None)  # null removes a member
        else:
            header[name] = value
    if alg in ("none", "HS256"):
        signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
        if alg == "none":
            return signing_input + "."
        _, private = keys[request.get("key", "rsa-1")]
        secret = private.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo)
        return signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())
    _, private = keys[request.get("key", kid)]
    extra = {name: value for name, value in header.items() if name != "alg"}
    return jwt.encode(claims, private, algorithm=alg, headers=extra)


def verify_client_secret(form):
    """The client secret's claims, or raises with the reason it is refused."""
    if team_public_key is None:
        raise ValueError("no team key given to the fixture")
    secret = form.get("client_secret", "")
    header = jwt.get_unverified_header(secret)
    if header.get("alg") != "ES256":
        raise ValueError("alg is %r, not ES256" % header.get("alg"))
    if header.get("kid") != options.apple_key_id:
        raise ValueError("kid is %r, not %r" % (header.get("kid"), options.apple_key_id))
    claims = jwt.decode(secret, team_public_key, algorithms=["ES256"], audience="https://appleid.apple.com",
                        issuer=options.apple_team_id,
                        options={"verify_exp": False, "verify_iat": False, "require": ["iss", "iat", "exp", "aud", "sub"]})
    if claims["sub"] != options.apple_client_id or form.get("client_id") != options.apple_client_id:
        raise ValueError("sub %r / client_id %r is not %r" % (claims["sub"], form.get("client_id"), options.apple_client_id))
    if not 0 < claims["exp"] - claims["iat"] <= 15777000:
        raise ValueError("exp - iat is %r, not within six months" % (claims["exp"] - claims["iat"]))
    return claims


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json"):
        if not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/jwks":
            with lock:
                state["jwks_fetches"] += 1
                delay = state["slow"]
            # A slow key server (POST /slow): the wait holds only this request.
            if delay:
                time.sleep(delay)
        with lock:
            if self.path == "/jwks":
                if state["down"]:
                    return self.answer(503, {"error": "down"})
                if state["jwks_body"] is not None:
                    return self.answer(200, state["jwks_body"].encode())
                return self.answer(200, jwks())
            if self.path == "/stats":
                return self.answer(200, {"jwks_fetches": state["jwks_fetches"]})
            if self.path == "/revoked":
                return self.answer(200, revoked)
            if self.path == "/apple-requests":
                return self.answer(200, apple_requests)
        self.answer(404, {"error": "not found"})

    def do_POST(self):
        raw = self.body()
        if self.path.startswith("/auth/"):
            return self.apple(raw)
        request = json.loads(raw) if raw else {}
        with lock:
            if self.path == "/sign":
                try:
                    return self.answer(200, {"token": sign(request)})
                except Exception as failure:
                    return self.answer(400, {"error": str(failure)})
            if self.path == "/rotate":
                kind = request.get("kind", "rsa")
                counters[kind] += 1
                kid = "%s-%d" % (kind, counters[kind])
                keys[kid] = new_key(kind)
                for old in request.get("retire", []):
                    keys.pop(old, None)
                return self.answer(200, {"kid": kid})
            if self.path == "/jwks-body":
                state["jwks_body"] = request.get("body")
                return self.answer(200, {})
            if self.path == "/slow":
                state["slow"] = float(request.get("seconds", 0))
                return self.answer(200, {})
            if self.path in ("/down", "/up"):
                state["down"] = self.path == "/down"
                return self.answer(200, {})
        self.answer(404, {"error": "not found"})

    def apple(self, raw):
        form = {name: values[0] for name, values in parse_qs(raw.decode(), keep_blank_values=True).items()}
        record = {"endpoint": self.path, "form": {k: v for k, v in form.items() if k != "client_secret"},
                  "content_type": self.headers.get("Content-Type")}
        try:
            record["claims"] = verify_client_secret(form)
            record["verified"] = True
        except Exception as failure:
            record["verified"], record["error"] = False, str(failure)
        with lock:
            apple_requests.append(record)
        if not record["verified"]:
            return self.answer(400, {"error": "invalid_client"})
        if self.path == "/auth/token":
            code = form.get("code", "")
            if form.get("grant_type") != "authorization_code" or not code or code == "expired-code":
                return self.answer(400, {"error": "invalid_grant"})
            now = int(time.time())
            with lock:
                id_token = jwt.encode({"iss": "https://appleid.apple.com", "aud": options.apple_client_id,
                                       "sub": "apple-" + code, "iat": now, "exp": now + 600},
                                      keys["rsa-1"][1], algorithm="RS256", headers={"kid": "rsa-1"})
            return self.answer(200, {"access_token": "a-" + code, "token_type": "Bearer", "expires_in": 3600,
                                     "refresh_token": "r-" + code, "id_token": id_token})
        if self.path == "/auth/revoke":
            if form.get("token_type_hint") not in (None, "refresh_token", "access_token") or not form.get("token"):
                return self.answer(400, {"error": "invalid_request"})
            with lock:
                revoked.append({"token": form["token"], "token_type_hint": form.get("token_type_hint")})
            return self.answer(200, b"")
        self.answer(404, {"error": "not found"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
sys.stdout.write("listening %d\n" % server.server_address[1])
sys.stdout.flush()
server.serve_forever()
