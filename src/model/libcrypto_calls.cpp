// OpenSSL's SHA-256, as perfgate calls it, reached through dlopen on first use
// (model/loaded_library.hpp says why): libcrypto alone kept 3 MB resident in every perfgate
// process. Each function forwards to the same function of the libcrypto perfgate was built
// against; the compiler checks every signature against openssl/evp.h.
#include <openssl/evp.h>

#include "model/loaded_library.hpp"
#include "perfgate_build_paths.hpp"

namespace {

#define PERFGATE_LIBCRYPTO_FUNCTIONS(X) \
  X(EVP_Digest)                         \
  X(EVP_DigestFinal_ex)                 \
  X(EVP_DigestInit_ex)                  \
  X(EVP_DigestUpdate)                   \
  X(EVP_MD_CTX_free)                    \
  X(EVP_MD_CTX_new)                     \
  X(EVP_sha256)

PERFGATE_LAZY_LIBRARY(PERFGATE_LIBCRYPTO_FUNCTIONS, PERFGATE_LIBCRYPTO_SONAME,
                      "SHA-256 content ids", "Install Debian's libssl3 package.")

}  // namespace

extern "C" {

int EVP_Digest(const void* data, size_t count, unsigned char* md, unsigned int* size,
               const EVP_MD* type, ENGINE* impl) {
  return calls().EVP_Digest(data, count, md, size, type, impl);
}
int EVP_DigestFinal_ex(EVP_MD_CTX* ctx, unsigned char* md, unsigned int* s) {
  return calls().EVP_DigestFinal_ex(ctx, md, s);
}
int EVP_DigestInit_ex(EVP_MD_CTX* ctx, const EVP_MD* type, ENGINE* impl) {
  return calls().EVP_DigestInit_ex(ctx, type, impl);
}
int EVP_DigestUpdate(EVP_MD_CTX* ctx, const void* d, size_t cnt) {
  return calls().EVP_DigestUpdate(ctx, d, cnt);
}
void EVP_MD_CTX_free(EVP_MD_CTX* ctx) {
  calls().EVP_MD_CTX_free(ctx);
}
EVP_MD_CTX* EVP_MD_CTX_new(void) {
  return calls().EVP_MD_CTX_new();
}
const EVP_MD* EVP_sha256(void) {
  return calls().EVP_sha256();
}

}  // extern "C"
