// perfgate: the library plus this main(). It parses the command line, hands the work to
// one subcommand and prints any error once.
#include <CLI/CLI.hpp>
#include <csignal>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string_view>

#include "cli/ab_command.hpp"
#include "cli/baseline_command.hpp"
#include "cli/bisect_command.hpp"
#include "cli/comment_command.hpp"
#include "cli/compare_command.hpp"
#include "cli/completions_command.hpp"
#include "cli/diff_command.hpp"
#include "cli/history_command.hpp"
#include "cli/import_command.hpp"
#include "cli/profile_command.hpp"
#include "cli/report_command.hpp"
#include "cli/run_command.hpp"
#include "cli/serve_command.hpp"
#include "cli/store_command.hpp"
#include "cli/terminal.hpp"
#include "cli/usage_error.hpp"
#include "cli/worker_command.hpp"
#include "count/perf_events.hpp"
#include "model/error.hpp"
#include "model/visible_text.hpp"
#include "perfgate_version.hpp"

namespace {

/// --no-color on every command (diff has its own, which also switches to emoji marks).
void add_no_color_flags(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    if (command->get_option_no_throw("--no-color") == nullptr) {
      command->add_flag_callback(
          "--no-color", [] { perfgate::forbid_color(); },
          "No colour in the output (as NO_COLOR=1 does)");
    }
    add_no_color_flags(*command);
  }
}

/// 128 + SIGPIPE, as a shell reports a program that a closed pipe ended.
constexpr int kClosedPipeExit = 128 + SIGPIPE;

int dispatch(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // The harness's own wrapper of a run counted with hardware counters (count/): not a
  // command for people, so not in the command line's help.
  if (argc >= 2 && std::string_view(argv[1]) == perfgate::kCountHardwareCommand) {
    return perfgate::count_hardware_main(argc, argv);
  }
  // A closed pipe (`perfgate ab ... | tee log` after a Ctrl-C ended tee) must not kill
  // perfgate halfway through writing its results: its writes to stdout fail instead, the
  // command finishes its files and exits with its own status. Measured programs and helpers
  // get SIGPIPE back at its default (src/measure/spawn.cpp, command_capture.cpp).
  std::signal(SIGPIPE, SIG_IGN);
  const int status = dispatch(argc, argv);
  std::cout.flush();
  // Output lost to a closed pipe: not a success, as a shell would report it.
  if (status == 0 && !std::cout) return kClosedPipeExit;
  return status;
}

namespace {

int dispatch(int argc, char** argv) {
  using perfgate::ExitCode;
  CLI::App app{"perfgate: measure programs, keep every measurement, gate on regressions"};
  app.set_version_flag("--version", std::string("perfgate ") + perfgate::kVersion);
  app.require_subcommand(1);
  app.footer("Run 'perfgate <command> --help' for a command's flags and examples.");

  perfgate::RunOptions run_options;
  CLI::App* run = perfgate::add_run_command(app, run_options);
  perfgate::CompareOptions compare_options;
  CLI::App* compare = perfgate::add_compare_command(app, compare_options);
  perfgate::BaselineOptions baseline_options;
  const auto [prepare, approve] = perfgate::add_baseline_command(app, baseline_options);
  perfgate::ReportOptions report_options;
  CLI::App* report = perfgate::add_report_command(app, report_options);
  perfgate::AbOptions ab_options;
  CLI::App* ab = perfgate::add_ab_command(app, ab_options);
  perfgate::DiffOptions diff_options;
  CLI::App* diff = perfgate::add_diff_command(app, diff_options);
  perfgate::ImportCommandOptions import_options;
  CLI::App* import_command = perfgate::add_import_command(app, import_options);
  perfgate::ProfileOptions profile_options;
  CLI::App* profile = perfgate::add_profile_command(app, profile_options);
  perfgate::HistoryOptions history_options;
  const perfgate::HistoryCommands history = perfgate::add_history_command(app, history_options);
  perfgate::BisectOptions bisect_options;
  CLI::App* bisect = perfgate::add_bisect_command(app, bisect_options);
  perfgate::ServeOptions serve_options;
  CLI::App* serve = perfgate::add_serve_command(app, serve_options);
  perfgate::StoreCopyOptions store_copy_options;
  const perfgate::StoreCommands store = perfgate::add_store_command(app, store_copy_options);
  perfgate::WorkerCommandOptions worker_options;
  const perfgate::WorkerCommands worker = perfgate::add_worker_command(app, worker_options);
  perfgate::CommentOptions comment_options;
  CLI::App* comment = perfgate::add_comment_command(app, comment_options);
  perfgate::CompletionsOptions completions_options;
  CLI::App* completions = perfgate::add_completions_command(app, completions_options);

  add_no_color_flags(app);
  try {
    perfgate::split_adhoc_command(argc, argv, run_options);  // `run -- CMD ARGS...`
  } catch (const perfgate::Error& error) {
    std::cerr << "perfgate: error: " << error.what() << "\n";
    return static_cast<int>(error.code());
  }
  if (const auto unknown = perfgate::unknown_command_error(app, argc, argv)) {
    std::cerr << "perfgate: error: " << *unknown << "\n";
    return static_cast<int>(ExitCode::kUsage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    std::cerr << "perfgate: error: " << perfgate::describe_usage_error(app, error) << "\n";
    return static_cast<int>(ExitCode::kUsage);
  }

  try {
    if (run->parsed()) return perfgate::execute_run(run_options);
    if (compare->parsed()) return perfgate::execute_compare(compare_options);
    if (prepare->parsed()) return perfgate::execute_baseline_prepare(baseline_options);
    if (approve->parsed()) return perfgate::execute_baseline_approve(baseline_options);
    if (report->parsed()) return perfgate::execute_report(report_options);
    if (ab->parsed()) return perfgate::execute_ab(ab_options);
    if (diff->parsed()) return perfgate::execute_diff(diff_options);
    if (import_command->parsed()) return perfgate::execute_import(import_options);
    if (profile->parsed()) return perfgate::execute_profile(profile_options);
    if (history.history->parsed()) {
      return perfgate::execute_history(history, history_options);
    }
    if (bisect->parsed()) return perfgate::execute_bisect(bisect_options);
    if (serve->parsed()) return perfgate::execute_serve(serve_options);
    if (store.copy->parsed()) return perfgate::execute_store_copy(store_copy_options);
    if (store.check->parsed()) return perfgate::execute_store_check(store_copy_options);
    if (worker.worker->parsed()) return perfgate::execute_worker(worker, worker_options);
    if (comment->parsed()) return perfgate::execute_comment(comment_options);
    if (completions->parsed()) {
      std::cout << perfgate::completion_script(app, completions_options.shell);
      return 0;
    }
  } catch (const perfgate::Error& error) {
    // Messages quote names from files and flags: their control characters are shown.
    std::cerr << "perfgate: error: " << perfgate::visible_text(error.what(), true) << "\n";
    return static_cast<int>(error.code());
  } catch (const std::filesystem::filesystem_error& error) {
    // A file operation the code did not expect to fail (the disk filled up, a folder
    // became a file): an I/O error of this machine, not a bug.
    std::cerr << "perfgate: error: " << error.what() << ". Check free space and permissions.\n";
    return static_cast<int>(ExitCode::kIoError);
  } catch (const std::exception& error) {
    std::cerr << "perfgate: internal error: " << error.what() << "\nPlease report this as a bug.\n";
    return static_cast<int>(ExitCode::kSoftware);
  }
  return static_cast<int>(ExitCode::kSoftware);
}

}  // namespace
