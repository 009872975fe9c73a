"""Prints the TOTP code (RFC 6238: HMAC-SHA1, 30-second steps, six digits) of a base32
secret at each Unix time given, as PyOTP computes it for authenticator apps: the reference the
console's second factor is checked against.

    totp-code.py SECRET TIME [TIME ...]
"""
import sys

import pyotp

secret = sys.argv[1].replace(" ", "")
for moment in sys.argv[2:]:
    print(pyotp.TOTP(secret).at(int(moment)))
