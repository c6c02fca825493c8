#include "serve/listen_address.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "model/error.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(ListenAddress, ReadsHostAndPort) {
  ListenAddress a = parse_listen_address("127.0.0.1:8080");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 8080);
  a = parse_listen_address("[::1]:0");
  EXPECT_EQ(a.host, "::1");
  EXPECT_EQ(a.port, 0);
  a = parse_listen_address(":9000");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 9000);
  EXPECT_EQ(parse_listen_address("localhost:1").host, "localhost");
  EXPECT_EQ(parse_listen_address("0.0.0.0:80").host, "0.0.0.0");
}

TEST(ListenAddress, RefusesWhatIsNotHostAndPort) {
  for (const char* text :
       {"8080", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:65536", "127.0.0.1:-1", "::1:80",
        "[::1]80", "[::1", "example.com:80", "127.0.0.1:80x"}) {
    try {
      parse_listen_address(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ExitCode::kUsage) << text;
      EXPECT_THAT(error.what(), ::testing::HasSubstr("--listen '" + std::string(text) + "'"));
      EXPECT_THAT(error.what(), ::testing::HasSubstr("e.g. 127.0.0.1:8080"));
    }
  }
}

TEST(ListenAddress, KnowsTheLoopback) {
  EXPECT_TRUE(is_loopback("127.0.0.1"));
  EXPECT_TRUE(is_loopback("127.1.2.3"));
  EXPECT_TRUE(is_loopback("::1"));
  EXPECT_TRUE(is_loopback("localhost"));
  EXPECT_FALSE(is_loopback("0.0.0.0"));
  EXPECT_FALSE(is_loopback("::"));
  EXPECT_FALSE(is_loopback("192.168.1.2"));
  EXPECT_FALSE(is_loopback("evil.example"));
}

TEST(ListenAddress, WritesTheUrl) {
  EXPECT_EQ(listen_url("127.0.0.1", 8080), "http://127.0.0.1:8080/");
  EXPECT_EQ(listen_url("::1", 80), "http://[::1]:80/");
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
