"""Sign in with Apple for bench/http: a JWKS on loopback, identity tokens signed ahead of the
run, and a first pass that makes the accounts the measured sign-ins find.

Run with scripts/test-python (PyJWT and cryptography):

  apple-identity.py serve KEY_FILE PORT_FILE
      Makes an RSA-2048 key (kid "bench-rsa-1"), writes its private PEM to KEY_FILE, serves the
      public key as a JWKS at http://127.0.0.1:PORT/jwks (a free port, written to PORT_FILE)
      until killed.
  apple-identity.py sign KEY_FILE CLIENT_ID COUNT SUBJECTS OUT_FILE
      Writes COUNT Apple identity tokens to OUT_FILE, one line each: "<token> <raw nonce>".
      Token i is for subject "bench-apple-<i mod SUBJECTS>", with iss https://appleid.apple.com,
      aud CLIENT_ID, iat now, exp ten minutes later (as Apple's), and nonce the SHA-256 hex of a random raw nonce
      (so every token differs and each can sign in once). Signs on every core.
  apple-identity.py first-pass BASE_URL TOKENS_FILE REFRESH_FILE
      Signs in once with each token (one connection, one after another), sending the name
      Apple gives an app on a first sign-in ("Bench Climber <n>", so each new account's handle
      is free at the first try), expects 201 (or 200 for a subject with an account: a new
      session), and writes each answer's refresh token to REFRESH_FILE, one a line.
"""
import hashlib
import http.client
import json
import multiprocessing
import os
import secrets
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

KEY_ID = "bench-rsa-1"


def serve(key_file, port_file):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from jwt.algorithms import RSAAlgorithm

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    entry = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    entry.update({"kid": KEY_ID, "use": "sig", "alg": "RS256"})
    body = json.dumps({"keys": [entry]}).encode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            found = self.path == "/jwks"
            answer = body if found else b'{"error": "not found"}'
            self.send_response(200 if found else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(port_file + ".partial", "w") as file:
        file.write("%d\n" % server.server_address[1])
    os.rename(port_file + ".partial", port_file)
    server.serve_forever()


_signing = {}


def _start_signer(key_file, client_id, subjects):
    from cryptography.hazmat.primitives import serialization
    with open(key_file, "rb") as file:
        _signing["key"] = serialization.load_pem_private_key(file.read(), password=None)
    _signing["client_id"] = client_id
    _signing["subjects"] = subjects


def _sign_range(bounds):
    import jwt
    start, end = bounds
    now = int(time.time())
    lines = []
    for index in range(start, end):
        raw_nonce = secrets.token_hex(16)
        claims = {"iss": "https://appleid.apple.com", "aud": _signing["client_id"],
                  "sub": "bench-apple-%06d" % (index % _signing["subjects"]),
                  "iat": now, "exp": now + 600, "nonce": hashlib.sha256(raw_nonce.encode()).hexdigest(),
                  "nonce_supported": True}
        token = jwt.encode(claims, _signing["key"], algorithm="RS256", headers={"kid": KEY_ID})
        lines.append("%s %s\n" % (token, raw_nonce))
    return "".join(lines)


def sign(key_file, client_id, count, subjects, out_file):
    count, subjects = int(count), int(subjects)
    chunk = 500
    ranges = [(start, min(start + chunk, count)) for start in range(0, count, chunk)]
    with multiprocessing.Pool(os.cpu_count(), initializer=_start_signer,
                              initargs=(key_file, client_id, subjects)) as pool, open(out_file, "w") as out:
        for text in pool.imap(_sign_range, ranges):
            out.write(text)


def first_pass(base_url, tokens_file, refresh_file):
    address = urlsplit(base_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    refresh_tokens = []
    with open(tokens_file) as file:
        for number, line in enumerate(file, 1):
            token, raw_nonce = line.split()
            body = {"identity_token": token, "nonce": raw_nonce, "name": "Bench Climber %d" % number}
            connection.request("POST", "/v1/auth/apple", body=json.dumps(body),
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            answer = response.read()
            # 201 makes the account; 200 is a subject that already has one (a later pass's new session).
            if response.status not in (200, 201):
                sys.exit("error: a sign-in answered %d, not 201 or 200: %s" % (response.status, answer[:500].decode(errors="replace")))
            refresh_tokens.append(json.loads(answer)["refresh_token"])
    with open(refresh_file, "w") as file:
        file.writelines(token + "\n" for token in refresh_tokens)


if __name__ == "__main__":
    commands = {"serve": (serve, 2), "sign": (sign, 5), "first-pass": (first_pass, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in commands or len(sys.argv) - 2 != commands[sys.argv[1]][1]:
        sys.exit(__doc__)
    function, _ = commands[sys.argv[1]]
    function(*sys.argv[2:])
