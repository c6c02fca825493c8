#pragma once
// The PostgreSQL server the store tests run against: the one `make test` starts for the
// whole ctest run (scripts/test-postgres.sh, PERFGATE_TEST_POSTGRESQL names its socket
// folder), or, when the test binary runs on its own, one it starts for itself and stops
// when it exits. No test is skipped for want of a server.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

#include "store/postgres_connection.hpp"

namespace perfgate {

namespace postgres_test_detail {

class OwnServer {
 public:
  OwnServer()
      : dir_("/tmp/perfgate-pg-" + std::to_string(::getpid())),
        script_(std::string(PERFGATE_SOURCE_DIR) + "/scripts/test-postgres.sh") {
    const std::string start =
        "bash '" + script_ + "' start '" + dir_ + "' " + std::to_string(::getpid());
    if (std::system(start.c_str()) != 0) {
      throw std::runtime_error("cannot start a PostgreSQL server for the tests: " + start);
    }
  }
  ~OwnServer() { std::system(("bash '" + script_ + "' stop '" + dir_ + "'").c_str()); }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::string script_;
};

}  // namespace postgres_test_detail

/// The socket folder of the tests' server.
inline std::string postgres_test_host() {
  if (const char* dir = std::getenv("PERFGATE_TEST_POSTGRESQL"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  static const postgres_test_detail::OwnServer server;
  return server.dir();
}

/// The URL of database `name` on the tests' server (trust authentication, user perfgate).
inline std::string postgres_test_url(const std::string& name) {
  return "postgresql://perfgate@/" + name + "?host=" + postgres_test_host();
}

/// A new, empty database on the tests' server, by its URL.
inline std::string new_postgres_test_database() {
  std::random_device random;
  const std::string name =
      "t" + std::to_string(::getpid()) + "_" + std::to_string(random()) + std::to_string(random());
  PgConnection admin(postgres_test_url("postgres"));
  // template0 takes no connections, so tests creating databases at once never collide on it.
  admin.exec("CREATE DATABASE " + name + " TEMPLATE template0");
  return postgres_test_url(name);
}

}  // namespace perfgate
