#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <string.h>

/* Ed25519 through the EVP interface, for badge signatures. The key is kept as its 32-byte
 * seed; each call builds the EVP key it needs and frees it. Return 1 on success. */
static inline int belay_ed25519_generate(unsigned char seed[32], unsigned char public_key[32]) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
    int ok = context != NULL && EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_keygen(context, &key) == 1;
    size_t seed_length = 32, public_length = 32;
    ok = ok && EVP_PKEY_get_raw_private_key(key, seed, &seed_length) == 1 && seed_length == 32
            && EVP_PKEY_get_raw_public_key(key, public_key, &public_length) == 1 && public_length == 32;
    EVP_PKEY_free(key);
    EVP_PKEY_CTX_free(context);
    return ok;
}

static inline int belay_ed25519_public_key(const unsigned char seed[32], unsigned char public_key[32]) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    size_t length = 32;
    int ok = key != NULL && EVP_PKEY_get_raw_public_key(key, public_key, &length) == 1 && length == 32;
    EVP_PKEY_free(key);
    return ok;
}

static inline int belay_ed25519_sign(const unsigned char seed[32], const unsigned char *message, size_t length,
                                     unsigned char signature[64]) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t signature_length = 64;
    int ok = key != NULL && context != NULL && EVP_DigestSignInit(context, NULL, NULL, NULL, key) == 1
            && EVP_DigestSign(context, signature, &signature_length, message, length) == 1 && signature_length == 64;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

static inline int belay_ed25519_verify(const unsigned char public_key[32], const unsigned char *message, size_t length,
                                       const unsigned char *signature, size_t signature_length) {
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = key != NULL && context != NULL && EVP_DigestVerifyInit(context, NULL, NULL, NULL, key) == 1
            && EVP_DigestVerify(context, signature, signature_length, message, length) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

/* Keys and signatures of JSON Web Signatures (RS256 and ES256), for sign-in ID tokens and
 * Apple's client secret. A returned EVP_PKEY belongs to the caller, who frees it with
 * EVP_PKEY_free; every failure clears OpenSSL's error queue and returns NULL or 0. */

/* An RSA public key from its modulus and public exponent (big-endian bytes, as a JWK's `n`
 * and `e` hold them), checked by OpenSSL. */
static inline EVP_PKEY *belay_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e, size_t e_length) {
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    EVP_PKEY *key = NULL;
    int ok = modulus != NULL && exponent != NULL && builder != NULL && context != NULL
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent) == 1
            && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
            && EVP_PKEY_fromdata_init(context) == 1
            && EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) == 1;
    EVP_PKEY_CTX *check = ok ? EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL) : NULL;
    ok = ok && check != NULL && EVP_PKEY_public_check(check) == 1;
    EVP_PKEY_CTX_free(check);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(exponent);
    BN_free(modulus);
    if (!ok) {
        EVP_PKEY_free(key);
        ERR_clear_error();
        return NULL;
    }
    return key;
}

/* An EC public key on P-256 from its point's coordinates (32 big-endian bytes each, a JWK's
 * `x` and `y`); NULL when the point is not on the curve. */
static inline EVP_PKEY *belay_ec_p256_public_key(const unsigned char x[32], const unsigned char y[32]) {
    unsigned char point[65];
    point[0] = 0x04;
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point);
    params[2] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    int ok = context != NULL && EVP_PKEY_fromdata_init(context) == 1
            && EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) == 1;
    EVP_PKEY_CTX *check = ok ? EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL) : NULL;
    ok = ok && check != NULL && EVP_PKEY_public_check(check) == 1;
    EVP_PKEY_CTX_free(check);
    EVP_PKEY_CTX_free(context);
    if (!ok) {
        EVP_PKEY_free(key);
        ERR_clear_error();
        return NULL;
    }
    return key;
}

static inline int belay_refuse_password(char *buffer, int size, int purpose, void *context) {
    (void)buffer; (void)size; (void)purpose; (void)context;
    return 0;
}

/* A private key from PEM text (PKCS#8 "PRIVATE KEY", as Apple's .p8 files are); an
 * encrypted key is refused rather than prompting for a password. */
static inline EVP_PKEY *belay_pem_private_key(const char *pem, size_t length) {
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    EVP_PKEY *key = bio != NULL ? PEM_read_bio_PrivateKey(bio, NULL, belay_refuse_password, NULL) : NULL;
    BIO_free(bio);
    if (key == NULL) ERR_clear_error();
    return key;
}

/* 1 when `key` is an EC key on P-256 (prime256v1). */
static inline int belay_key_is_p256(EVP_PKEY *key) {
    char name[64] = {0};
    size_t length = 0;
    int ok = EVP_PKEY_is_a(key, "EC")
            && EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &length) == 1
            && strcmp(name, "prime256v1") == 0;
    if (!ok) ERR_clear_error();
    return ok;
}

/* 1 when `key` is an RSA key. */
static inline int belay_key_is_rsa(EVP_PKEY *key) { return EVP_PKEY_is_a(key, "RSA"); }

/* 1 when `signature` signs `message` under `key` with SHA-256: RSASSA-PKCS1-v1_5 for an RSA
 * key (RS256); for an EC key (ES256) the signature is JWS's raw r||s of 64 bytes, turned into
 * the DER that OpenSSL verifies. */
static inline int belay_verify_sha256(EVP_PKEY *key, const unsigned char *message, size_t length,
                                      const unsigned char *signature, size_t signature_length) {
    unsigned char *der = NULL;
    int der_length = 0;
    if (EVP_PKEY_is_a(key, "EC")) {
        if (signature_length != 64) return 0;
        ECDSA_SIG *pair = ECDSA_SIG_new();
        BIGNUM *r = BN_bin2bn(signature, 32, NULL);
        BIGNUM *s = BN_bin2bn(signature + 32, 32, NULL);
        if (pair == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(pair, r, s) != 1) {
            BN_free(r);
            BN_free(s);
            ECDSA_SIG_free(pair);
            ERR_clear_error();
            return 0;
        }
        der_length = i2d_ECDSA_SIG(pair, &der);
        ECDSA_SIG_free(pair);
        if (der_length <= 0) {
            ERR_clear_error();
            return 0;
        }
        signature = der;
        signature_length = (size_t)der_length;
    }
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context != NULL && EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1
            && EVP_DigestVerify(context, signature, signature_length, message, length) == 1;
    EVP_MD_CTX_free(context);
    OPENSSL_free(der);
    if (!ok) ERR_clear_error();
    return ok;
}

/* Signs `message` with the EC P-256 private `key` (ES256): OpenSSL's DER signature turned
 * into JWS's raw r||s, 64 bytes. */
static inline int belay_es256_sign(EVP_PKEY *key, const unsigned char *message, size_t length, unsigned char signature[64]) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t der_length = 0;
    unsigned char *der = NULL;
    ECDSA_SIG *pair = NULL;
    int ok = context != NULL && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
            && EVP_DigestSign(context, NULL, &der_length, message, length) == 1
            && (der = OPENSSL_malloc(der_length)) != NULL
            && EVP_DigestSign(context, der, &der_length, message, length) == 1;
    const unsigned char *cursor = der;
    ok = ok && (pair = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length)) != NULL;
    if (ok) {
        const BIGNUM *r = NULL, *s = NULL;
        ECDSA_SIG_get0(pair, &r, &s);
        ok = BN_bn2binpad(r, signature, 32) == 32 && BN_bn2binpad(s, signature + 32, 32) == 32;
    }
    ECDSA_SIG_free(pair);
    OPENSSL_free(der);
    EVP_MD_CTX_free(context);
    if (!ok) ERR_clear_error();
    return ok;
}/* Signs `message` with the RSA private `key` (RS256: PKCS#1 v1.5 with SHA-256) into
 * `signature` of `*length` bytes at most; `*length` becomes the signature's length. */
static inline int belay_rs256_sign(EVP_PKEY *key, const unsigned char *message, size_t length, unsigned char *signature, size_t *signature_length) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t needed = 0;
    int ok = context != NULL && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
            && EVP_DigestSign(context, NULL, &needed, message, length) == 1
            && needed <= *signature_length
            && EVP_DigestSign(context, signature, signature_length, message, length) == 1;
    EVP_MD_CTX_free(context);
    if (!ok) ERR_clear_error();
    return ok;
}


