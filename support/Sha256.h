// SHA-256 from libcrypto (OpenSSL's EVP interface): qtune's cache keys hash the emitted files.
#pragma once

#include <cstddef>
#include <string>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX

namespace qspec::support {

// Incremental SHA-256 (FIPS 180-4): the cache key hashes emitted files without copying them.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256 &) = delete;
  Sha256 &operator=(const Sha256 &) = delete;
  Sha256 &update(const void *data, size_t n);
  Sha256 &update(const std::string &s) { return update(s.data(), s.size()); }
  std::string hexDigest(); // lowercase hex; the object is spent afterwards

private:
  evp_md_ctx_st *ctx_;
};

// Lowercase hex SHA-256 of `data`.
std::string sha256Hex(const std::string &data);

} // namespace qspec::support
