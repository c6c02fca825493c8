#pragma once
// A local fake of the GitHub and GitLab comment endpoints perfgate comment uses, served on
// 127.0.0.1 by cpp-httplib for the length of a test: issue comments (GitHub) and merge
// request notes (GitLab), kept in memory, with the token checked, and canned replies (a
// rate limit, a server error) served before the real handling.
#include <httplib.h>

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfgate::testing {

struct ForgeComment {
  long long id = 0;
  std::string body;
  bool ours = true;  ///< false: another user's, which the token may not edit
};

struct ForgeRequest {
  std::string method;
  std::string path;
  std::string target;  ///< as sent: the path still percent-encoded, with the query
  std::string query;   ///< "page=1&per_page=100" as the server parsed it, sorted
  std::map<std::string, std::string> headers;
  std::string body;
};

struct CannedReply {
  int status = 500;
  std::map<std::string, std::string> headers;
  std::string body;
};

class FakeForge {
 public:
  /// `token_header` and `token`: what a request must carry ("Authorization", "Bearer x").
  FakeForge(std::string token_header, std::string token_value)
      : token_header_(std::move(token_header)), token_value_(std::move(token_value)) {
    server_.set_pre_routing_handler(
        [this](const httplib::Request& request, httplib::Response& response) {
          std::lock_guard<std::mutex> lock(mutex_);
          log(request);
          if (canned_.empty()) return httplib::Server::HandlerResponse::Unhandled;
          const CannedReply reply = canned_.front();
          canned_.pop_front();
          response.status = reply.status;
          for (const auto& [name, value] : reply.headers) response.set_header(name, value);
          response.set_content(reply.body, "application/json");
          return httplib::Server::HandlerResponse::Handled;
        });
    const auto list = [this](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!authorised(request, response)) return;
      const int page = request.has_param("page") ? std::stoi(request.get_param_value("page")) : 1;
      const int per_page =
          request.has_param("per_page") ? std::stoi(request.get_param_value("per_page")) : 30;
      nlohmann::json out = nlohmann::json::array();
      for (std::size_t i = static_cast<std::size_t>((page - 1) * per_page);
           i < comments_.size() && i < static_cast<std::size_t>(page * per_page); ++i)
        out.push_back(as_json(comments_[i]));
      response.set_content(out.dump(), "application/json");
    };
    const auto create = [this](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!authorised(request, response)) return;
      if (read_only) return forbid(response);
      ForgeComment comment{next_id_++, nlohmann::json::parse(request.body).at("body"), true};
      comments_.push_back(comment);
      response.status = 201;
      response.set_content(as_json(comment).dump(), "application/json");
    };
    const auto edit = [this](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!authorised(request, response)) return;
      const long long id = std::stoll(request.matches[request.matches.size() - 1]);
      for (ForgeComment& comment : comments_) {
        if (comment.id != id) continue;
        if (read_only || !comment.ours) return forbid(response);
        comment.body = nlohmann::json::parse(request.body).at("body");
        response.set_content(as_json(comment).dump(), "application/json");
        return;
      }
      response.status = 404;
      response.set_content(R"({"message":"Not Found"})", "application/json");
    };
    server_.Get(R"(/repos/([^/]+)/([^/]+)/issues/(\d+)/comments)", list);
    server_.Post(R"(/repos/([^/]+)/([^/]+)/issues/(\d+)/comments)", create);
    server_.Patch(R"(/repos/([^/]+)/([^/]+)/issues/comments/(\d+))", edit);
    server_.Get(R"((?:/api/v4)?/projects/(.+)/merge_requests/(\d+)/notes)", list);
    server_.Post(R"((?:/api/v4)?/projects/(.+)/merge_requests/(\d+)/notes)", create);
    server_.Put(R"((?:/api/v4)?/projects/(.+)/merge_requests/(\d+)/notes/(\d+))", edit);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // bind_to_any_port also listens: a request sent before the loop starts waits in the
    // socket's queue, so no wait for the thread is needed.
  }
  FakeForge(const FakeForge&) = delete;
  FakeForge& operator=(const FakeForge&) = delete;
  ~FakeForge() {
    server_.stop();
    thread_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  /// Replies served, in order, to the next requests, whatever they ask.
  void queue(CannedReply reply) {
    std::lock_guard<std::mutex> lock(mutex_);
    canned_.push_back(std::move(reply));
  }
  void add(const std::string& body, bool ours) {
    std::lock_guard<std::mutex> lock(mutex_);
    comments_.push_back({next_id_++, body, ours});
  }
  std::vector<ForgeComment> comments() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return comments_;
  }
  std::vector<ForgeRequest> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

  /// Every write refused with 403, as for a forked pull request's read-only token.
  bool read_only = false;

 private:
  void log(const httplib::Request& request) {
    ForgeRequest logged{request.method, request.path, request.target, "", {}, request.body};
    for (const auto& [name, value] : request.params)
      logged.query += (logged.query.empty() ? "" : "&") + name + "=" + value;
    for (const auto& [name, value] : request.headers) logged.headers[name] = value;
    requests_.push_back(logged);
  }

  bool authorised(const httplib::Request& request, httplib::Response& response) const {
    if (request.get_header_value(token_header_) == token_value_) return true;
    response.status = 401;
    response.set_content(R"({"message":"Bad credentials"})", "application/json");
    return false;
  }

  static void forbid(httplib::Response& response) {
    response.status = 403;
    response.set_content(R"({"message":"Resource not accessible by integration"})",
                         "application/json");
  }

  nlohmann::json as_json(const ForgeComment& comment) const {
    return {{"id", comment.id},
            {"body", comment.body},
            {"html_url", "https://forge.example/pull/1#issuecomment-" + std::to_string(comment.id)},
            {"system", false}};
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = -1;
  std::string token_header_;
  std::string token_value_;
  mutable std::mutex mutex_;
  std::deque<CannedReply> canned_;
  std::vector<ForgeComment> comments_;
  std::vector<ForgeRequest> requests_;
  long long next_id_ = 1001;
};

}  // namespace perfgate::testing
