#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

/// An HMAC-SHA-256 context keyed with `key` (which may be empty), to be copied with
/// EVP_MAC_CTX_dup for each message; NULL when libcrypto cannot make one. The digest's name
/// goes in as an OSSL_PARAM, which Swift cannot build from a string literal by itself.
static inline EVP_MAC_CTX *coursebook_hmac_sha256(const unsigned char *key, size_t length) {
    static const unsigned char empty = 0;
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (context == NULL) return NULL;
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    // A NULL key would mean "keep the key set before", and there is none.
    if (EVP_MAC_init(context, key != NULL ? key : &empty, length, parameters) != 1) {
        EVP_MAC_CTX_free(context);
        return NULL;
    }
    return context;
}
