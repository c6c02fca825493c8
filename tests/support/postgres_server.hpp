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
  explicit OwnServer(std::string dir = "/tmp/perfgate-pg-" + std::to_string(::getpid()))
      : dir_(std::move(dir)),
        script_(std::string(PERFGATE_SOURCE_DIR) + "/scripts/test-postgres.sh") {
    const std::string start =
        "bash '" + script_ + "' start '" + dir_ + "' " + std::to_string(::getpid());
    if (std::system(start.c_str()) != 0) {
      throw std::runtime_error("cannot start a PostgreSQL server for the tests: " + start);
    }
  }
  OwnServer(const OwnServer&) = delete;
  OwnServer& operator=(const OwnServer&) = delete;
  ~OwnServer() { std::system(("bash '" + script_ + "' stop '" + dir_ + "'").c_str()); }
  const std::string& dir() const { return dir_; }
  /// pg_ctl restart -m immediate: every connection is cut, as in a crash.
  void restart() const {
    const std::string command = "bash '" + script_ + "' restart '" + dir_ + "'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
  }

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

/// A PostgreSQL server of one test's own, for a test that restarts it or cuts its
/// connections: the shared server must stay up for every other test. Stopped and removed
/// when the object goes.
class PrivatePostgresServer {
 public:
  PrivatePostgresServer() : server_(next_dir()) {
    PgConnection admin(url("postgres"));
    admin.exec("CREATE DATABASE store TEMPLATE template0");
    // A commit survives the crash restart() is, as on a production server (the shared
    // test server trades that for speed).
    admin.exec("ALTER SYSTEM SET synchronous_commit = on");
    admin.exec("SELECT pg_reload_conf()");
  }
  /// The URL of the server's database `name` ("store" is created empty).
  std::string url(const std::string& name = "store") const {
    return "postgresql://perfgate@/" + name + "?host=" + server_.dir();
  }
  void restart() const { server_.restart(); }
  /// pg_terminate_backend on every other connection to the store's database; how many.
  int terminate_connections() const {
    PgConnection admin(url("postgres"));
    return admin
        .run(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'store' "
            "AND pid <> pg_backend_pid()")
        .rows();
  }

 private:
  static std::string next_dir() {
    static int count = 0;
    return "/tmp/perfgate-pg-" + std::to_string(::getpid()) + "-own-" + std::to_string(++count);
  }
  postgres_test_detail::OwnServer server_;
};

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
