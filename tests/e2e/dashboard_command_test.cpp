// End-to-end: `perfgate report --format html` and `perfgate serve`, through the real binary,
// on a real SQLite store.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "model/json.hpp"
#include "report/store_view.hpp"
#include "store/store.hpp"
#include "support/background_perfgate.hpp"
#include "support/cli_runner.hpp"
#include "support/postgres_server.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_perfgate;

const std::string kHistory = R"({"kind":"perfgate-history","schema_version":1,"series":[]})";

/// A project folder with a store of two records in one cohort: a SQLite store in the
/// folder, or the store at `store_url`.
struct Project {
  TempDir dir;
  std::string url;
  explicit Project(const std::string& store_url = "")
      : url(store_url.empty() ? "sqlite:" + (dir / "perf.db").string() : store_url) {
    auto store = open_store(url);
    for (const char* timestamp : {"2026-11-30T10:00:00Z", "2026-12-01T10:00:00Z"}) {
      Attempt attempt;
      attempt.created_at = timestamp;
      attempt.run_source = "local";
      NormalizedRecord r;
      r.benchmark_id = "<img src=x onerror=alert(1)>";
      r.timestamp = timestamp;
      r.device = "cpu";
      r.run_source = "local";
      r.metrics["latency"] = {0.25, "s", Direction::kLowerIsBetter};
      attempt.records.push_back(r);
      assign_attempt_id(attempt);
      store->append(attempt);
    }
  }
  testing::CliResult perfgate(const std::vector<std::string>& args) {
    return run_perfgate(args, dir.path(), {{"PERFGATE_STORE", url}});
  }
};

/// The JSON text a data script of the site holds: window.NAME = '<text>';
std::string script_json(const std::string& script, const std::string& name) {
  const std::string prefix = "window." + name + " = '";
  EXPECT_EQ(script.substr(0, prefix.size()), prefix);
  EXPECT_EQ(script.substr(script.size() - 3), "';\n");
  std::string text;
  for (std::size_t i = prefix.size(); i + 3 < script.size(); ++i) {
    char c = script[i];
    if (c == '\\') {
      c = script[++i];
      if (c == 'n') c = '\n';
      if (c == 'r') c = '\r';
    }
    text += c;
  }
  return text;
}

/// GET (or another method) over a plain socket; returns the status line's code and body.
std::pair<int, std::string> http(int port, const std::string& path,
                                 const std::string& method = "GET",
                                 const std::string& host = "127.0.0.1") {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return {-1, ""};
  }
  const std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + host +
                              "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  if (::send(fd, request.data(), request.size(), 0) < 0) return {-1, ""};
  std::string response;
  char buffer[65536];
  ssize_t got = 0;
  while ((got = ::recv(fd, buffer, sizeof buffer, 0)) > 0) response.append(buffer, got);
  ::close(fd);
  const auto space = response.find(' ');
  const auto body = response.find("\r\n\r\n");
  if (space == std::string::npos || body == std::string::npos) return {-1, response};
  return {std::stoi(response.substr(space + 1, 3)), response.substr(body + 4)};
}

/// A connected socket to the server, or -1.
int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// Sends `request` as it is and reads the whole answer: (status, body).
std::pair<int, std::string> raw_http(int port, const std::string& request) {
  const int fd = connect_to(port);
  if (fd < 0) return {-1, ""};
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[65536];
  ssize_t got = 0;
  while ((got = ::recv(fd, buffer, sizeof buffer, 0)) > 0) response.append(buffer, got);
  ::close(fd);
  const auto space = response.find(' ');
  const auto body = response.find("\r\n\r\n");
  if (space == std::string::npos || body == std::string::npos) return {-1, response};
  return {std::stoi(response.substr(space + 1, 3)), response.substr(body + 4)};
}

/// The port `perfgate serve` printed it listens on, once it has (up to 20 s).
int wait_for_port(const fs::path& out) {
  const std::regex listening(R"(perfgate serve: http://127\.0\.0\.1:(\d+)/)");
  for (int attempt = 0; attempt < 2000; ++attempt) {
    std::smatch match;
    const std::string text = read_text_file(out);
    if (std::regex_search(text, match, listening)) return std::stoi(match[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

TEST(DashboardCommand, ReportWritesASiteThatOpensFromDisk) {
  Project p;
  p.dir.write("history.json", kHistory + "\n");
  const auto result =
      p.perfgate({"report", "--format", "html", "--history", "history.json", "-o", "site/"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "site/index.html\n");
  EXPECT_THAT(read_text_file(p.dir / "site/index.html"), HasSubstr("data/store.js"));
  const Json view =
      Json::parse(script_json(read_text_file(p.dir / "site/data/store.js"), "PERFGATE_STORE"));
  EXPECT_EQ(view["record_count"], 2);
  EXPECT_EQ(view["cohorts"][0]["label"], "Legacy v1 (<img src=x onerror=alert(1)>, cpu)");
  EXPECT_EQ(script_json(read_text_file(p.dir / "site/data/history.js"), "PERFGATE_HISTORY"),
            kHistory);

  // Run it twice: the site exists now, so a second run needs --force, and then replaces it.
  const auto again = p.perfgate({"report", "--format", "html", "-o", "site"});
  EXPECT_EQ(again.exit_code, 64);
  EXPECT_THAT(again.err, HasSubstr("perfgate: error: site: holds a site perfgate wrote earlier. "
                                   "Pass --force"));
  EXPECT_EQ(p.perfgate({"report", "--format", "html", "-o", "site", "--force"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(p.dir / "site/data/history.js"));
}

/// A store of `count` records of `cohorts` cohorts (legacy ones, by benchmark), in one append.
void fill_store(const std::string& url, std::size_t count, std::size_t cohorts) {
  Attempt attempt;
  attempt.created_at = "2026-12-01T10:00:00Z";
  attempt.run_source = "local";
  for (std::size_t i = 0; i < count; ++i) {
    NormalizedRecord r;
    r.benchmark_id = "bench-" + std::to_string(i % cohorts);
    r.timestamp = fmt::format("2026-11-{:02}T{:02}:{:02}:{:02}Z", 1 + i / 86400, i / 3600 % 24,
                              i / 60 % 60, i % 60);
    r.device = "cpu";
    r.run_source = "local";
    r.metrics["latency"] = {0.25 + static_cast<double>(i % 7) / 100,
                            "s",
                            Direction::kLowerIsBetter,
                            {0.24, 0.25, 0.26}};
    attempt.records.push_back(r);
  }
  assign_attempt_id(attempt);
  open_store(url)->append(attempt);
}

TEST(DashboardCommand, ReportWritesEachCohortsDetailsApartBeyondTenThousandRecords) {
  TempDir dir;
  fill_store("sqlite:" + (dir / "whole.db").string(), kDetailsApartRecords, 2);
  fill_store("sqlite:" + (dir / "apart.db").string(), kDetailsApartRecords + 1, 2);
  ASSERT_EQ(
      run_perfgate({"report", "--format", "html", "--store", "sqlite:whole.db", "-o", "whole"},
                   dir.path())
          .exit_code,
      0);
  EXPECT_FALSE(fs::exists(dir / "whole/data/cohorts"));
  const auto result = run_perfgate(
      {"report", "--format", "html", "--store", "sqlite:apart.db", "-o", "apart"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Json view =
      Json::parse(script_json(read_text_file(dir / "apart/data/store.js"), "PERFGATE_STORE"));
  EXPECT_EQ(view["record_count"], kDetailsApartRecords + 1);
  ASSERT_EQ(view["cohorts"].size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    const Json& cohort = view["cohorts"][c];
    EXPECT_EQ(cohort["details"]["file"], c + 1);
    EXPECT_FALSE(cohort["records"].contains("commit"));
    const std::string number = std::to_string(c + 1);
    const Json details =
        Json::parse(script_json(read_text_file(dir / ("apart/data/cohorts/" + number + ".js")),
                                "PERFGATE_COHORT_" + number));
    EXPECT_EQ(details["kind"], "perfgate-store-cohort-details");
    EXPECT_EQ(details["id"], cohort["id"]);
    EXPECT_EQ(details["records"]["record"].size(), cohort["records"]["timestamp"].size());
    EXPECT_EQ(details["metrics"][0]["name"], "latency");
    EXPECT_EQ(details["metrics"][0]["spread"]["median"][0], 0.25);
  }
}

TEST(DashboardCommand, ReportAndServeLinkCommitsToTheProjectsCommitPage) {
  Project p;
  p.dir.write("perfgate.toml", "[history]\ncommit_url = \"https://git.example/h/{sha}\"\n");
  fs::create_directories(p.dir / "sub");
  const auto commit_url_of_site = [&](const fs::path& from) {
    const auto result = run_perfgate({"report", "--format", "html", "-o", "site", "--force"}, from,
                                     {{"PERFGATE_STORE", p.url}});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return Json::parse(
        script_json(read_text_file(from / "site/data/store.js"), "PERFGATE_STORE"))["commit_url"];
  };
  // Found from a subfolder: without [report], the history's page.
  EXPECT_EQ(commit_url_of_site(p.dir / "sub"), "https://git.example/h/{sha}");
  p.dir.write("perfgate.toml",
              "[history]\ncommit_url = \"https://git.example/h/{sha}\"\n"
              "[report]\ncommit_url = \"https://forge.example/r/-/commit/{sha}\"\n");
  EXPECT_EQ(commit_url_of_site(p.dir.path()), "https://forge.example/r/-/commit/{sha}");

  testing::BackgroundPerfgate serve(
      {"serve", "--listen", "127.0.0.1:0", "--project", (p.dir / "perfgate.toml").string()},
      p.dir / "sub", {{"PERFGATE_STORE", p.url}});
  const int port = wait_for_port(p.dir / "sub/perfgate.out");
  ASSERT_GT(port, 0) << read_text_file(p.dir / "sub/perfgate.err");
  const auto [status, body] = http(port, "/data/store.json");
  ASSERT_EQ(status, 200) << body;
  EXPECT_EQ(Json::parse(body)["commit_url"], "https://forge.example/r/-/commit/{sha}");
  serve.signal(SIGINT);
  EXPECT_EQ(serve.wait(), 0);

  p.dir.write("perfgate.toml", "[report]\ncommit_url = \"https://forge.example/r/commit/\"\n");
  const auto bad = p.perfgate({"report", "--format", "html", "-o", "other"});
  EXPECT_EQ(bad.exit_code, 65);
  EXPECT_THAT(bad.err, HasSubstr("perfgate.toml: report.commit_url: has no {sha}. Give the "
                                 "address of a commit's page with {sha} for its SHA"));
  EXPECT_FALSE(fs::exists(p.dir / "other"));
}

// --force replaces only a site perfgate wrote: never the folder the user stands in, a
// folder of theirs, or one that holds the history or the store the site is made from.
TEST(DashboardCommand, ForceDeletesNothingPerfgateDidNotWrite) {
  Project p;
  p.dir.write("keep.txt", "mine\n");
  p.dir.write("sub/notes.txt", "mine too\n");
  auto result = p.perfgate({"report", "--format", "html", "-o", ".", "--force"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr(".: is the current folder or holds it"));
  result = run_perfgate({"report", "--format", "html", "-o", "..", "--force"}, p.dir / "sub",
                        {{"PERFGATE_STORE", p.url}});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("..: is the current folder or holds it"));
  result = p.perfgate({"report", "--format", "html", "-o", "sub", "--force"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("sub: already exists, is not empty and was not written by "
                                    "perfgate report (it has no .perfgate-site file)"));
  EXPECT_EQ(read_text_file(p.dir / "keep.txt"), "mine\n");
  EXPECT_EQ(read_text_file(p.dir / "sub/notes.txt"), "mine too\n");

  // The README's flow: history export -o site/history.json, then the site around it, which
  // keeps it; replaced with --force, it keeps it again.
  p.dir.write("site/history.json", kHistory);
  result =
      p.perfgate({"report", "--format", "html", "--history", "site/history.json", "-o", "site/"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(p.dir / "site/.perfgate-site"));
  EXPECT_TRUE(fs::exists(p.dir / "site/index.html"));
  EXPECT_EQ(read_text_file(p.dir / "site/history.json"), kHistory);
  result = p.perfgate(
      {"report", "--format", "html", "--history", "site/history.json", "-o", "site/", "--force"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(read_text_file(p.dir / "site/history.json"), kHistory);
  // A site the store lives in is never replaced.
  result = run_perfgate({"report", "--format", "html", "-o", p.dir.path().string(), "--force"},
                        p.dir / "site", {{"PERFGATE_STORE", p.url}});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_TRUE(fs::exists(p.dir / "perf.db"));
}

TEST(DashboardCommand, ReportRefusesBadInputBeforeWritingAnything) {
  Project p;
  auto result = p.perfgate({"report", "--format", "html"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("name it with -o"));
  result = p.perfgate({"report", "--format", "html", "--history", "missing.json", "-o", "site"});
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_THAT(result.err, HasSubstr("--history: missing.json: cannot open it"));
  p.dir.write("plan.json", R"({"kind":"perfgate-history-plan","schema_version":1})");
  result = p.perfgate({"report", "--format", "html", "--history", "plan.json", "-o", "site"});
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_THAT(result.err, HasSubstr("plan.json: is not a history.json"));
  result = p.perfgate({"report", "--history", "plan.json"});
  EXPECT_EQ(result.exit_code, 64);
  result = run_perfgate({"report", "--format", "html", "-o", "site", "--store",
                         "sqlite:" + (p.dir / "nowhere.db").string()},
                        p.dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_FALSE(fs::exists(p.dir / "site"));
  EXPECT_FALSE(fs::exists(p.dir / "nowhere.db"));
}

TEST(DashboardCommand, ReportWritesAHistoryOnlySiteWhenNoStoreWasNamed) {
  TempDir dir;
  dir.write("history.json", kHistory);
  const auto result = run_perfgate(
      {"report", "--format", "html", "--history", "history.json", "-o", "site"}, dir.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("the site shows the commit history only"));
  EXPECT_TRUE(fs::exists(dir / "site/data/history.js"));
  EXPECT_FALSE(fs::exists(dir / "site/data/store.js"));
  EXPECT_FALSE(fs::exists(dir / ".perfgate"));  // no store was created on the way
}

TEST(DashboardCommand, ASiteBuildRefusesAForeignExportAndWarnsWhenItIsStale) {
  TempDir dir;
  const std::string sha = "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f";
  dir.write("history.json",
            R"({"kind":"perfgate-history","schema_version":1,"series":[],"source_sha":")" + sha +
                R"(","attempts":[{"started_at":"2020-05-08T10:00:00Z"},)"
                R"({"started_at":"2020-05-09T05:00:00+02:00"}]})");
  // Another checkout's export: refused before anything is written.
  auto result = run_perfgate({"report", "--format", "html", "--history", "history.json", "-o",
                              "site", "--expect-source", "1a2b3c4d5e6f"},
                             dir.path());
  EXPECT_EQ(result.exit_code, 65);
  EXPECT_EQ(result.err,
            "perfgate: error: history.json: exported from " + sha +
                ", not from 1a2b3c4d5e6f: a site must publish the export of its own checkout (a "
                "stale or foreign export is refused). Export again in this checkout (perfgate "
                "history export -o history.json), then build the site.\n");
  EXPECT_FALSE(fs::exists(dir / "site"));
  // Its own export, old: built, with a warning naming the newest attempt.
  result = run_perfgate({"report", "--format", "html", "--history", "history.json", "-o", "site",
                         "--expect-source", sha.substr(0, 12), "--stale-after", "3"},
                        dir.path());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err, HasSubstr("perfgate report: warning: history.json: its newest attempt "
                                    "started 2020-05-09T05:00:00+02:00, "));
  EXPECT_THAT(result.err, HasSubstr(" days ago (more than --stale-after 3): the history has "
                                    "stopped growing."));
  EXPECT_TRUE(fs::exists(dir / "site/index.html"));
  result = run_perfgate({"report", "--format", "html", "-o", "site2", "--expect-source", sha},
                        dir.path());
  EXPECT_EQ(result.exit_code, 64);
  result = run_perfgate({"report", "--format", "html", "--history", "history.json", "-o", "site3",
                         "--expect-source", "main"},
                        dir.path());
  EXPECT_EQ(result.exit_code, 64);
}

TEST(DashboardCommand, ServeAnswersTheApiSeesNewRecordsAndStopsOnCtrlC) {
  Project p;
  p.dir.write("history.json", kHistory);
  testing::BackgroundPerfgate serve(
      {"serve", "--listen", "127.0.0.1:0", "--history", "history.json"}, p.dir.path(),
      {{"PERFGATE_STORE", p.url}});
  const int port = wait_for_port(p.dir / "perfgate.out");
  ASSERT_GT(port, 0) << read_text_file(p.dir / "perfgate.err");

  auto [status, body] = http(port, "/api/v1/cohorts");
  ASSERT_EQ(status, 200) << body;
  EXPECT_EQ(Json::parse(body)["cohorts"][0]["record_count"], 2);
  std::tie(status, body) = http(port, "/");
  EXPECT_EQ(status, 200);
  EXPECT_THAT(body, HasSubstr("<!doctype html>"));
  std::tie(status, body) = http(port, "/data/history.json");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(body, kHistory);

  // A record stored while it runs is in the next answer.
  {
    auto store = open_store(p.url);
    Attempt attempt;
    attempt.created_at = "2026-12-02T10:00:00Z";
    NormalizedRecord r;
    r.benchmark_id = "<img src=x onerror=alert(1)>";
    r.timestamp = "2026-12-02T10:00:00Z";
    r.device = "cpu";
    r.metrics["latency"] = {0.3, "s", Direction::kLowerIsBetter};
    attempt.records.push_back(r);
    assign_attempt_id(attempt);
    store->append(attempt);
  }
  std::tie(status, body) = http(port, "/data/store.json");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(Json::parse(body)["record_count"], 3);

  // Read-only, its own files only, loopback names only.
  std::tie(status, body) = http(port, "/api/v1/cohorts", "POST");
  EXPECT_EQ(status, 405);
  std::tie(status, body) = http(port, "/api/v1/records", "DELETE");
  EXPECT_EQ(status, 405);
  std::tie(status, body) = http(port, "/../../../../etc/passwd");
  EXPECT_NE(status, 200);
  EXPECT_THAT(body, ::testing::Not(HasSubstr("root:")));
  std::tie(status, body) = http(port, "/%2e%2e/%2e%2e/etc/passwd");
  EXPECT_NE(status, 200);
  std::tie(status, body) = http(port, "/api/v1/cohorts", "GET", "evil.example");
  EXPECT_EQ(status, 403);

  serve.signal(SIGINT);
  EXPECT_EQ(serve.wait(), 0);
  EXPECT_THAT(read_text_file(p.dir / "perfgate.err"), HasSubstr("stopped by SIGINT"));
  EXPECT_EQ(http(port, "/").first, -1);  // nothing listens any more
}

// Issue 33, 4: after the server restarts or cuts the connection, the next request is
// answered on a new connection instead of a 500 for ever.
TEST(DashboardCommand, ServeAnswersFromAPostgresStoreAgainAfterTheServerRestarts) {
  const PrivatePostgresServer server;
  Project p(server.url());
  testing::BackgroundPerfgate serve({"serve", "--listen", "127.0.0.1:0"}, p.dir.path(),
                                    {{"PERFGATE_STORE", p.url}});
  const int port = wait_for_port(p.dir / "perfgate.out");
  ASSERT_GT(port, 0) << read_text_file(p.dir / "perfgate.err");
  const auto [status, before] = http(port, "/api/v1/attempts");
  ASSERT_EQ(status, 200) << before;
  EXPECT_EQ(Json::parse(before)["attempts"].size(), 2u);

  server.restart();
  auto [restarted_status, restarted] = http(port, "/api/v1/attempts");
  EXPECT_EQ(restarted_status, 200) << restarted;
  EXPECT_EQ(restarted, before);
  EXPECT_EQ(http(port, "/data/store.json").first, 200);

  EXPECT_GE(server.terminate_connections(), 1);
  std::tie(restarted_status, restarted) = http(port, "/api/v1/attempts");
  EXPECT_EQ(restarted_status, 200) << restarted;
  EXPECT_EQ(restarted, before);
  serve.signal(SIGTERM);
  EXPECT_EQ(serve.wait(), 0);
}

TEST(DashboardCommand, ServeStandsHostileClients) {
  Project p;
  testing::BackgroundPerfgate serve({"serve", "--listen", "127.0.0.1:0"}, p.dir.path(),
                                    {{"PERFGATE_STORE", p.url}});
  const int port = wait_for_port(p.dir / "perfgate.out");
  ASSERT_GT(port, 0) << read_text_file(p.dir / "perfgate.err");
  const auto [plain_status, plain] = http(port, "/data/store.json");
  ASSERT_EQ(plain_status, 200);

  // 400 ranges: the whole file once, not 400 copies built in memory.
  std::string ranges = "bytes=0-";
  for (int i = 0; i < 399; ++i) ranges += ",0-";
  auto [status, body] = raw_http(port,
                                 "GET /data/store.json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 "Range: " +
                                     ranges + "\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(body.size(), plain.size());

  // A flood of header lines is refused, not stored.
  std::string flood = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (int i = 0; i < 500; ++i) flood += "X-Flood-" + std::to_string(i) + ": x\r\n";
  std::tie(status, body) = raw_http(port, flood + "\r\n");
  EXPECT_EQ(status, 431);

  // More clients than the server has threads, each holding its request's head open: they
  // are cut off at the head's deadline, and the next request is answered.
  std::vector<int> slow;
  for (int i = 0; i < 40; ++i) {
    const int fd = connect_to(port);
    ASSERT_GE(fd, 0);
    const std::string start = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    ::send(fd, start.data(), start.size(), MSG_NOSIGNAL);
    slow.push_back(fd);
  }
  std::tie(status, body) = http(port, "/api/v1/cohorts");
  EXPECT_EQ(status, 200);
  char buffer[256];
  const ssize_t got = ::recv(slow.front(), buffer, sizeof buffer, 0);
  ASSERT_GT(got, 12);
  EXPECT_EQ(std::string(buffer, 12), "HTTP/1.1 408");
  for (const int fd : slow) ::close(fd);

  // A client in the middle of its head does not hold a signal off.
  const int held = connect_to(port);
  ::send(held, "GET / HTTP/1.1\r\n", 16, MSG_NOSIGNAL);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  serve.signal(SIGTERM);
  EXPECT_EQ(serve.wait(), 0);
  ::close(held);
}

TEST(DashboardCommand, ServeRefusesARemoteAddressWithoutTheFlagAndABadAddress) {
  Project p;
  auto result = p.perfgate({"serve", "--listen", "0.0.0.0:0"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("Pass --allow-remote"));
  result = p.perfgate({"serve", "--listen", "localhost"});
  EXPECT_EQ(result.exit_code, 64);
  EXPECT_THAT(result.err, HasSubstr("--listen 'localhost': there is no :PORT"));
  result =
      run_perfgate({"serve", "--store", "sqlite:" + (p.dir / "typo.db").string()}, p.dir.path());
  EXPECT_EQ(result.exit_code, 66);
  EXPECT_FALSE(fs::exists(p.dir / "typo.db"));
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
