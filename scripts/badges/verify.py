"""Checks a Belay sticker's baked Open Badges 3.0 credential with an independent verifier
(openbadgeslib), the way a third party would: the token from the PNG's iTXt chunk, the
issuer's key from its published profile, the revocation list fetched and its own signature
checked. Prints one JSON object: {"valid": bool, "reason": str|null, ...}.

usage: verify.py STICKER.png ISSUER_BASE_URL [--served-at URL]
  --served-at rewrites ISSUER_BASE_URL to where the server actually listens (tests).
"""
import base64
import json
import sys
import urllib.request

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from openbadgeslib.ob3 import OB3Verifier, OB3VerificationError


def unpadded(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def main():
    sticker, base = sys.argv[1], sys.argv[2].rstrip("/")
    served = sys.argv[sys.argv.index("--served-at") + 1].rstrip("/") if "--served-at" in sys.argv else base

    def download(url):
        return urllib.request.urlopen(url.replace(base, served, 1), timeout=10).read()

    result = {"valid": False, "reason": None}
    try:
        token = OB3Verifier.extract_token_from_png(open(sticker, "rb").read())
        header = json.loads(unpadded(token.split(".")[0]))
        profile = json.loads(download(base + "/issuer"))
        jwk = next((k for k in profile.get("publicKeys", []) if k.get("kid") == header.get("kid")), None)
        if jwk is None:
            raise OB3VerificationError("the token's key %r is not published by the issuer" % header.get("kid"))
        pem = Ed25519PublicKey.from_public_bytes(unpadded(jwk["x"])).public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        credential = OB3Verifier(pem).verify(token, check_status=True, download=download)
        result.update(valid=True, achievement=credential.achievement.name, issuer=credential.issuer.name,
                      issuer_id=credential.issuer.id, valid_from=credential.issuance_date.isoformat(),
                      key=header.get("kid"))
    except Exception as error:  # every failure is a verdict, reported as such
        result["reason"] = "%s: %s" % (type(error).__name__, error)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["valid"] else 1


if __name__ == "__main__":
    sys.exit(main())
