#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>

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
