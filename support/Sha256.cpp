// SHA-256 through libcrypto's EVP interface, which uses the CPU's SHA instructions where it has
// them; see Sha256.h.
#include "support/Sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace qspec::support {

namespace {
// A context that cannot be made or started means the library is out of memory: nothing to
// recover, as with a failed allocation elsewhere.
void check(bool ok) {
  if (!ok) {
    std::fputs("fatal: libcrypto could not start a SHA-256 digest\n", stderr);
    std::abort();
  }
}
} // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  check(ctx_ && EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) == 1);
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

Sha256 &Sha256::update(const void *data, size_t n) {
  check(EVP_DigestUpdate(ctx_, data, n) == 1);
  return *this;
}

std::string Sha256::hexDigest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  check(EVP_DigestFinal_ex(ctx_, md, &len) == 1 && len == 32);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

std::string sha256Hex(const std::string &data) { return Sha256().update(data).hexDigest(); }

} // namespace qspec::support
