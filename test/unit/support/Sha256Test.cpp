// support::Sha256: the known answers of FIPS 180-4's examples (NIST's "SHA-256" example file),
// and an incremental update that splits its input anywhere without changing the digest.
#include "support/Sha256.h"

#include <gtest/gtest.h>

using qspec::support::Sha256;
using qspec::support::sha256Hex;

TEST(Sha256, KnownAnswers) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, SplitsAnywhere) {
  std::string data(64 * 37 + 13, '\0');
  uint32_t x = 12345;
  for (char &c : data) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 23);
  }
  const std::string whole = sha256Hex(data);
  for (size_t cut : {0, 1, 55, 56, 63, 64, 65, 1000}) {
    Sha256 h;
    h.update(data.data(), cut).update(data.data() + cut, data.size() - cut);
    EXPECT_EQ(h.hexDigest(), whole) << cut;
  }
}
