#include "measure/host_profile.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "measure/command_capture.hpp"
#include "measure/nvml.hpp"
#include "measure/package_versions.hpp"
#include "model/error.hpp"
#include "model/fingerprint.hpp"
#include "support/fake_host.hpp"
#include "support/temp_dir.hpp"

namespace perfgate {
namespace PERFGATE_TEST_FILE {

using testing::FakeHost;

SoftwareProfileConfig dpkg_only(std::vector<std::string> packages) {
  SoftwareProfileConfig config;
  config.dpkg_packages = std::move(packages);
  return config;
}

const SoftwareProfileConfig kPackages = dpkg_only({"cmake", "libssl3", "valgrind"});

// Sets an environment variable for one scope and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(HardwareProfile, ReadsCpuModelCoresAndMemoryFromTheProbe) {
  const HardwareProfile hw = collect_hardware_profile(FakeHost{});
  EXPECT_EQ(hw.cpu_model, "AMD EPYC 7B13 64-Core Processor");
  EXPECT_EQ(hw.architecture, "x86_64");
  EXPECT_EQ(hw.logical_cores, 16);
  EXPECT_DOUBLE_EQ(hw.memory_mb, 32823316.0 / 1024.0);
  EXPECT_TRUE(hw.gpus.empty());
  EXPECT_EQ(hw.gpu_note, "no NVIDIA GPU: NVML (libnvidia-ml.so.1) could not be loaded: test");
}

TEST(HardwareProfile, CallsTheCpuUnknownWhenCpuinfoHasNoModelName) {
  FakeHost host;
  host.files["/proc/cpuinfo"] = "processor\t: 0\nCPU implementer\t: 0x41\n";
  host.files.erase("/proc/meminfo");
  const HardwareProfile hw = collect_hardware_profile(host);
  EXPECT_EQ(hw.cpu_model, "unknown");
  EXPECT_EQ(hw.memory_mb, 0.0);
}

TEST(HardwareProfile, HasThisExactJsonAndIdForACpuMachine) {
  const HardwareProfile hw = collect_hardware_profile(FakeHost{});
  const std::string expected =
      R"({"architecture":"x86_64","cpu_model":"AMD EPYC 7B13 64-Core Processor",)"
      R"("device_type":"cpu","gpu_count":0,"gpus":[],"logical_cores":16,"memory_gb":31})";
  EXPECT_EQ(canonical_json(hw.to_json()), expected);
  EXPECT_EQ(hw.id(), "hw-" + sha256_hex(expected).substr(0, 16));
  // Pinned: stored records carry this id, so a change here splits every cohort.
  EXPECT_EQ(hw.id(), "hw-582e5cbc21f7ad94");
}

TEST(HardwareProfile, ListsGpusWithWholeGibAndMarksTheDeviceTypeCuda) {
  FakeHost host;
  host.gpu_list = {{"NVIDIA L40S", 46068.0, "8.9"}, {"NVIDIA L40S", 46068.0, ""}};
  const HardwareProfile hw = collect_hardware_profile(host);
  EXPECT_EQ(hw.gpu_note, "");
  const Json j = hw.to_json();
  EXPECT_EQ(j["device_type"], "cuda");
  EXPECT_EQ(j["gpu_count"], 2);
  EXPECT_EQ(canonical_json(j["gpus"]),
            R"([{"compute_capability":"8.9","memory_gb":45,"name":"NVIDIA L40S"},)"
            R"({"compute_capability":null,"memory_gb":45,"name":"NVIDIA L40S"}])");
}

TEST(HardwareProfile, KeepsItsIdForTheSameMachineAndChangesItForAnotherCpu) {
  FakeHost host;
  const std::string id = collect_hardware_profile(host).id();
  EXPECT_EQ(collect_hardware_profile(host).id(), id);

  host.files["/proc/meminfo"] = "MemTotal:       32800000 kB\n";  // less reserved memory
  EXPECT_EQ(collect_hardware_profile(host).id(), id);

  host.files["/proc/cpuinfo"] = "model name\t: AMD EPYC 9654 96-Core Processor\n";
  EXPECT_NE(collect_hardware_profile(host).id(), id);
}

TEST(HardwareProfile, ExcludesTheGpuNoteFromItsId) {
  FakeHost host;
  const std::string id = collect_hardware_profile(host).id();
  host.gpu_note = "no NVIDIA GPU: NVML lists no devices";
  EXPECT_EQ(collect_hardware_profile(host).id(), id);
}

TEST(HardwareProfile, NamesTheDeviceAfterTheFirstGpuElseTheCpu) {
  HardwareProfile hw;
  hw.cpu_model = "Intel(R) Xeon(R) Platinum 8480+";
  EXPECT_EQ(hw.device_name(), "Intel(R) Xeon(R) Platinum 8480+");
  hw.gpus = {{"NVIDIA H100 80GB HBM3", 81559.0, "9.0"}, {"NVIDIA A10", 22731.0, "8.6"}};
  EXPECT_EQ(hw.device_name(), "NVIDIA H100 80GB HBM3");
}

TEST(SoftwareProfile, HasThisExactJsonAndId) {
  const SoftwareProfile sw = collect_software_profile(FakeHost{}, kPackages);
  const std::string expected =
      R"({"compiler":"g++ (Debian 12.2.0-14) 12.2.0","kernel":"6.1.0-18-amd64",)"
      R"j("libc":"glibc 2.36","os":"Debian GNU/Linux 12 (bookworm)",)j"
      R"("packages":{"cmake":"3.25.1-1","libssl3":"3.0.11-1~deb12u2",)"
      R"("valgrind":"not-installed"}})";
  EXPECT_EQ(canonical_json(sw.to_json()), expected);
  EXPECT_EQ(sw.id(), "sw-" + sha256_hex(expected).substr(0, 16));
  // Pinned: stored records carry this id, so a change here splits every cohort.
  EXPECT_EQ(sw.id(), "sw-4dc005ea252750b5");
}

TEST(SoftwareProfile, ChangesItsIdWhenAPackageVersionChanges) {
  FakeHost host;
  const std::string id = collect_software_profile(host, kPackages).id();
  EXPECT_EQ(collect_software_profile(host, kPackages).id(), id);
  host.files["/var/lib/dpkg/status"] =
      "Package: libssl3\nStatus: install ok installed\nVersion: 3.0.13-1~deb12u1\n\n"
      "Package: cmake\nStatus: install ok installed\nVersion: 3.25.1-1\n";
  EXPECT_NE(collect_software_profile(host, kPackages).id(), id);
}

TEST(SoftwareProfile, FallsBackToUsrLibOsReleaseAndToUnknown) {
  FakeHost host;
  host.files.erase("/etc/os-release");
  host.files["/usr/lib/os-release"] = "NAME=Fedora\nPRETTY_NAME='Fedora Linux 40'\n";
  EXPECT_EQ(collect_software_profile(host, {}).os, "Fedora Linux 40");
  host.files.erase("/usr/lib/os-release");
  EXPECT_EQ(collect_software_profile(host, {}).os, "unknown");
}

TEST(SoftwareProfile, NamesTheImageProfileVersionAndEveryPackageSourceInItsJson) {
  FakeHost host;
  host.programs["python3"] = {true, 0, "numpy 1.26.4\ntorch not-installed\n", ""};
  host.programs["/bin/sh"] = {true, 0, "cuda 12.4\n", ""};
  SoftwareProfileConfig config = dpkg_only({"cmake"});
  config.image = "ghcr.io/acme/bench:py3.12-cuda12.4";
  config.profile_version = "3";
  config.pip_packages = {"numpy", "torch"};
  config.packages_command = "./list-versions";
  config.command_dir = "/src/project";
  config.package_versions = {{"firmware", "2.1"}};
  const SoftwareProfile sw = collect_software_profile(host, config);
  EXPECT_EQ(canonical_json(sw.to_json()),
            R"({"command_packages":{"cuda":"12.4"},"compiler":"g++ (Debian 12.2.0-14) 12.2.0",)"
            R"("image":"ghcr.io/acme/bench:py3.12-cuda12.4","kernel":"6.1.0-18-amd64",)"
            R"j("libc":"glibc 2.36","os":"Debian GNU/Linux 12 (bookworm)",)j"
            R"("package_versions":{"firmware":"2.1"},"packages":{"cmake":"3.25.1-1"},)"
            R"("pip_packages":{"numpy":"1.26.4","torch":"not-installed"},"profile_version":"3"})");
  EXPECT_TRUE(sw.notes.empty());
  ASSERT_EQ(host.commands_run.size(), 2u);
  const auto& [python_argv, python_dir] = host.commands_run[0];
  ASSERT_EQ(python_argv.size(), 5u);
  EXPECT_EQ(python_argv[0], "python3");
  EXPECT_EQ(python_argv[1], "-c");
  EXPECT_EQ(python_argv[3], "numpy");
  EXPECT_EQ(python_argv[4], "torch");
  EXPECT_EQ(python_dir, "/src/project");
  EXPECT_EQ(host.commands_run[1].first,
            (std::vector<std::string>{"/bin/sh", "-c", "./list-versions"}));
  EXPECT_EQ(host.commands_run[1].second, "/src/project");
}

TEST(SoftwareProfile, RunsNoHelperCommandWhenNoneIsConfigured) {
  FakeHost host;
  collect_software_profile(host, kPackages);
  EXPECT_TRUE(host.commands_run.empty());
}

TEST(SoftwareProfile, ChangesItsIdWhenTheImageChanges) {
  SoftwareProfileConfig config = kPackages;
  config.image = "ghcr.io/acme/bench:py3.12-cuda12.4@sha256:1111";
  const std::string before = collect_software_profile(FakeHost{}, config).id();
  config.image = "ghcr.io/acme/bench:py3.12-cuda12.4@sha256:2222";
  EXPECT_NE(collect_software_profile(FakeHost{}, config).id(), before);
  EXPECT_NE(collect_software_profile(FakeHost{}, kPackages).id(), before);
}

TEST(SoftwareProfile, TakesTheImageFromPerfgateImageRefThenImageVersionThenPerfgateToml) {
  SoftwareProfileConfig config;
  config.image = "from-toml";
  EXPECT_EQ(collect_software_profile(FakeHost{}, config, {}).image, "from-toml");
  Environment env{{"IMAGE_VERSION", "py3.12-cuda13.0.0"}};
  EXPECT_EQ(collect_software_profile(FakeHost{}, config, env).image, "py3.12-cuda13.0.0");
  env["PERFGATE_IMAGE_REF"] = "ghcr.io/acme/dev:py3.12-cuda13.0.0@sha256:abcd";
  EXPECT_EQ(collect_software_profile(FakeHost{}, config, env).image,
            "ghcr.io/acme/dev:py3.12-cuda13.0.0@sha256:abcd");
  env["PERFGATE_IMAGE_REF"] = "";  // empty counts as unset
  EXPECT_EQ(collect_software_profile(FakeHost{}, config, env).image, "py3.12-cuda13.0.0");
  EXPECT_FALSE(collect_software_profile(FakeHost{}, {}, {}).image.has_value());
}

TEST(SoftwareProfile, TakesTheProfileVersionFromPerfgateProfileVersionOverPerfgateToml) {
  SoftwareProfileConfig config;
  config.profile_version = "3";
  EXPECT_EQ(collect_software_profile(FakeHost{}, config, {}).profile_version, "3");
  const Environment env{{"PERFGATE_PROFILE_VERSION", "4"}};
  const SoftwareProfile sw = collect_software_profile(FakeHost{}, config, env);
  EXPECT_EQ(sw.profile_version, "4");
  EXPECT_NE(sw.id(), collect_software_profile(FakeHost{}, config, {}).id());
}

TEST(SoftwareProfile, RecordsPipPackagesAsUnknownWithANoteWhenPythonCannotBeStarted) {
  SoftwareProfileConfig config;
  config.pip_packages = {"numpy", "torch"};
  const SoftwareProfile sw = collect_software_profile(FakeHost{}, config);
  EXPECT_EQ(sw.pip_packages, (PackageVersions{{"numpy", "unknown"}, {"torch", "unknown"}}));
  EXPECT_EQ(sw.notes, std::vector<std::string>{
                          "python3 could not be started, so pip_packages (numpy, torch) are "
                          "recorded as \"unknown\". Install Python 3.8 or later, or name the "
                          "interpreter with [software_profile] python in perfgate.toml"});
}

TEST(SoftwareProfile, RecordsPipPackagesAsUnknownWithANoteWhenPythonFails) {
  FakeHost host;
  host.programs["/opt/py/bin/python"] = {
      true, 1, "", "Traceback (most recent call last):\nModuleNotFoundError: No module named x\n"};
  SoftwareProfileConfig config;
  config.python = "/opt/py/bin/python";
  config.pip_packages = {"numpy"};
  const SoftwareProfile sw = collect_software_profile(host, config);
  EXPECT_EQ(sw.pip_packages, (PackageVersions{{"numpy", "unknown"}}));
  ASSERT_EQ(sw.notes.size(), 1u);
  EXPECT_EQ(sw.notes[0].substr(0, sw.notes[0].find(',')),
            "/opt/py/bin/python failed (exit status 1: ModuleNotFoundError: No module named x)");
}

TEST(SoftwareProfile, RecordsAPipPackagePythonDidNotListAsUnknown) {
  FakeHost host;
  host.programs["python3"] = {true, 0, "numpy 1.26.4\n", ""};
  SoftwareProfileConfig config;
  config.pip_packages = {"numpy", "scipy"};
  EXPECT_EQ(collect_software_profile(host, config).pip_packages,
            (PackageVersions{{"numpy", "1.26.4"}, {"scipy", "unknown"}}));
}

TEST(SoftwareProfile, ReadsAPackagesCommandThatPrintsJson) {
  FakeHost host;
  host.programs["/bin/sh"] = {true, 0, "  {\"triton\": \"3.4.1\", \"flashinfer\": \"0.2.11\"}\n",
                              ""};
  SoftwareProfileConfig config;
  config.packages_command = "python3 tools/versions.py --json";
  EXPECT_EQ(collect_software_profile(host, config).command_packages,
            (PackageVersions{{"flashinfer", "0.2.11"}, {"triton", "3.4.1"}}));
}

TEST(SoftwareProfile, RefusesAPackagesCommandThatFailsNamingTheKeyAndTheReason) {
  FakeHost host;
  host.programs["/bin/sh"] = {true, 127, "", "sh: 1: ./list-versions: not found\n"};
  SoftwareProfileConfig config;
  config.source = "/src/project/perfgate.toml";
  config.packages_command = "./list-versions";
  try {
    collect_software_profile(host, config);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_EQ(std::string(e.what()),
              "/src/project/perfgate.toml: software_profile.packages_command: the command "
              "failed with exit status 127: sh: 1: ./list-versions: not found. Make the command "
              "print `name version` lines or a JSON object of name to version, or remove the "
              "key");
  }
}

TEST(SoftwareProfile, RefusesAPackagesCommandThatPrintsSomethingElse) {
  FakeHost host;
  host.programs["/bin/sh"] = {true, 0, "triton 3.4.1\nusage: list [--json] [--all]\n", ""};
  SoftwareProfileConfig config;
  config.source = "perfgate.toml";
  config.packages_command = "pip list";
  try {
    collect_software_profile(host, config);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kDataError);
    EXPECT_NE(std::string(e.what()).find("it printed something that is not a package list: line "
                                         "2 \"usage: list [--json] [--all]\" is not `name "
                                         "version`"),
              std::string::npos)
        << e.what();
  }
}

TEST(PackageList, ReadsNameVersionLinesAndSkipsBlankAndCommentLines) {
  std::string problem;
  const auto list =
      parse_package_list("# versions\n\ntriton 3.4.1\n  xformers\t0.0.28  \r\n", problem);
  ASSERT_TRUE(list) << problem;
  EXPECT_EQ(*list, (PackageVersions{{"triton", "3.4.1"}, {"xformers", "0.0.28"}}));
}

TEST(PackageList, RefusesALineWithoutAVersionAndAJsonVersionThatIsNotAString) {
  std::string problem;
  EXPECT_FALSE(parse_package_list("triton\n", problem));
  EXPECT_EQ(problem, "line 1 \"triton\" is not `name version`");
  EXPECT_FALSE(parse_package_list("{\"triton\": 3}", problem));
  EXPECT_EQ(problem, "the version of \"triton\" is not a non-empty string");
  EXPECT_FALSE(parse_package_list("{\"triton\": ", problem));
  EXPECT_EQ(problem, "it starts with '{' but is not a JSON object");
}

TEST(DpkgVersions, TakesTheFirstInstalledStanzaAndSkipsRemovedPackages) {
  const std::string status =
      "Package: libc6\nStatus: deinstall ok config-files\nArchitecture: i386\nVersion: 2.35-1\n"
      "\n"
      "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nVersion: 2.36-9\n"
      "Description: GNU C Library\n multi-line description\n .\n more\n"
      "\n"
      "Package: libc6\nStatus: install ok installed\nArchitecture: i386\nVersion: 2.36-8\n"
      "\n"
      "Package: gdb\nVersion: 13.1-3\nStatus: hold ok installed\n"
      "\n"
      "Package: valgrind\nStatus: purge ok not-installed\n";
  const auto versions = dpkg_versions(status, {"libc6", "gdb", "valgrind", "perf"});
  const std::map<std::string, std::string> expected{{"gdb", "13.1-3"},
                                                    {"libc6", "2.36-9"},
                                                    {"perf", "not-installed"},
                                                    {"valgrind", "not-installed"}};
  EXPECT_EQ(versions, expected);
}

TEST(DpkgVersions, ReadsWindowsLineEndsAndALastStanzaWithoutANewline) {
  const std::string status =
      "Package: cmake\r\nStatus: install ok installed\r\nVersion:  3.25.1-1 \r\n\r\n"
      "Package: gdb\nStatus: install ok installed\nVersion: 13.1-3";
  const auto versions = dpkg_versions(status, {"cmake", "gdb"});
  const std::map<std::string, std::string> expected{{"cmake", "3.25.1-1"}, {"gdb", "13.1-3"}};
  EXPECT_EQ(versions, expected);
}

TEST(SoftwareProfile, ReadsTheDpkgDatabaseOnlyWhenAPackageIsAskedFor) {
  FakeHost host;
  EXPECT_TRUE(collect_software_profile(host, {}).packages.empty());
  EXPECT_EQ(std::count(host.files_read.begin(), host.files_read.end(), "/var/lib/dpkg/status"), 0);
  EXPECT_EQ(collect_software_profile(host, dpkg_only({"cmake"})).packages.at("cmake"), "3.25.1-1");
  EXPECT_EQ(std::count(host.files_read.begin(), host.files_read.end(), "/var/lib/dpkg/status"), 1);
}

TEST(DpkgVersions, ReportsEveryPackageNotInstalledWithoutADatabase) {
  const auto versions = dpkg_versions("", {"cmake"});
  EXPECT_EQ(versions.at("cmake"), "not-installed");
  EXPECT_EQ(versions.size(), 1u);
}

TEST(Nvml, ListsNoGpuAndSaysWhyWhenTheLibraryIsAbsent) {
  std::string note;
  const auto gpus = list_nvml_gpus("libperfgate-no-such-nvml.so.1", note);
  EXPECT_TRUE(gpus.empty());
  EXPECT_EQ(
      note.rfind("no NVIDIA GPU: NVML (libperfgate-no-such-nvml.so.1) could not be loaded: ", 0),
      0u)
      << note;
  EXPECT_NE(note.find("libperfgate-no-such-nvml.so.1: cannot open shared object file"),
            std::string::npos)
      << note;
}

TEST(Nvml, ListsNoGpuAndSaysWhyWhenTheLibraryIsNotNvml) {
  std::string note;
  const auto gpus = list_nvml_gpus("libc.so.6", note);
  EXPECT_TRUE(gpus.empty());
  EXPECT_EQ(note, "no NVIDIA GPU: NVML lacks nvmlInit_v2");
}

TEST(RealHost, ReturnsNothingForAFileThatCannotBeRead) {
  EXPECT_EQ(real_host().read_file("/nonexistent/perfgate/cpuinfo"), "");
}

TEST(RealHost, DescribesThisMachineWithAtLeastOneCoreAndSomeMemory) {
  const HardwareProfile hw = collect_hardware_profile(real_host());
  EXPECT_GE(hw.logical_cores, 1);
  EXPECT_GT(hw.memory_mb, 0.0);
  EXPECT_FALSE(hw.architecture.empty());
  EXPECT_EQ(real_host().libc_version().rfind("glibc ", 0), 0u);
}

// A shell script in `dir` that a test names as its compiler.
std::filesystem::path fake_compiler(const TempDir& dir, const std::string& body) {
  const auto script = dir / "fake-cxx";
  std::ofstream(script) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script;
}

TEST(RealHost, TakesTheCompilerFromTheFirstLineOfCxxVersion) {
  const TempDir dir;
  const auto script = fake_compiler(dir, "echo \"fakecc 9.1 ($1)\"\necho second line\n");
  ScopedEnv cxx("CXX", script.string());
  EXPECT_EQ(real_host().compiler_version(), "fakecc 9.1 (--version)");
}

// "ccache g++": $CXX is cut into words as the shell cuts an unquoted variable, and nothing
// else in it is shell syntax: no shell is started.
TEST(RealHost, RunsCxxAsAProgramAndItsArgumentsWithoutAShell) {
  const TempDir dir;
  const auto script = fake_compiler(dir, "echo \"fakecc 9.1 ($1|$2|$3)\"\n");
  {
    ScopedEnv cxx("CXX", " " + script.string() + "\tg++  \n");
    EXPECT_EQ(real_host().compiler_version(), "fakecc 9.1 (g++|--version|)");
  }
  ScopedEnv cxx("CXX", script.string() + " $(touch " + (dir / "ran").string() + ")");
  EXPECT_EQ(real_host().compiler_version(),
            "fakecc 9.1 ($(touch|" + (dir / "ran").string() + ")|--version)");
  EXPECT_FALSE(std::filesystem::exists(dir / "ran"));
}

// A compiler's banner with quotes, markup, an escape and bytes that are not UTF-8: the line
// is kept, its bad bytes U+FFFD (the profile's id takes UTF-8 only).
TEST(RealHost, KeepsACompilerLineThatIsNotUtf8WithItsBadBytesReplaced) {
  const TempDir dir;
  const auto script =
      fake_compiler(dir, "printf 'cc \"q\" <script> \\033[31m \\377\\376 end\\n'\n");
  ScopedEnv cxx("CXX", script.string());
  EXPECT_EQ(real_host().compiler_version(),
            "cc \"q\" <script> \x1b[31m \xEF\xBF\xBD\xEF\xBF\xBD end");
}

TEST(VersionLine, IsTheFirstLineOnStdoutOfAProgramThatSucceeds) {
  const TempDir dir;
  const auto ok = fake_compiler(dir, "echo \"tool 2.1 ($1 $2)\"\necho more\necho oops >&2\n");
  EXPECT_EQ(version_line({ok.string(), "-q"}, 10), "tool 2.1 (-q --version)");
  EXPECT_EQ(version_line({"/bin/sh", "-c", "echo 1.0; exit 3", "sh"}, 10), std::nullopt);
  EXPECT_EQ(version_line({(dir / "missing").string()}, 10), std::nullopt);
  EXPECT_EQ(version_line({}, 10), std::nullopt);
}

TEST(RealHost, SaysNoneWhenNeitherCxxNorCppCanBeRun) {
  ScopedEnv cxx("CXX", "/nonexistent/perfgate/cxx");
  ScopedEnv path("PATH", "/nonexistent/perfgate/bin");
  EXPECT_EQ(real_host().compiler_version(), "none");
}

TEST(RealHost, RunsACommandAndKeepsItsStdoutAndStderrApart) {
  const CommandOutput output =
      real_host().run_command({"/bin/sh", "-c", "pwd; echo oops >&2; exit 3"}, "/");
  EXPECT_TRUE(output.started);
  EXPECT_EQ(output.exit_status, 3);
  EXPECT_EQ(output.out, "/\n");
  EXPECT_EQ(output.err, "oops\n");
}

TEST(RealHost, SaysAProgramThatIsNotOnThePathWasNotStarted) {
  const CommandOutput output = real_host().run_command({"perfgate-no-such-program"}, "");
  EXPECT_FALSE(output.started);
}

TEST(CommandCapture, KillsACommandThatOutlivesItsTimeout) {
  const CommandOutput output =
      capture_command({"/bin/sh", "-c", "echo started; sleep 30"}, "", 2.0);
  EXPECT_TRUE(output.started);
  EXPECT_EQ(output.exit_status, -1);
  EXPECT_EQ(output.out, "started\n");
}

TEST(RealHost, ReadsAPipPackageVersionThroughPython3AndCallsAnAbsentOneNotInstalled) {
  if (!real_host().run_command({"python3", "-c", "import importlib.metadata"}, "").started) {
    GTEST_SKIP() << "python3 is not installed";
  }
  SoftwareProfileConfig config;
  config.pip_packages = {"perfgate-no-such-distribution"};
  std::vector<std::string> notes;
  EXPECT_EQ(pip_versions(real_host(), config, notes),
            (PackageVersions{{"perfgate-no-such-distribution", "not-installed"}}));
  EXPECT_TRUE(notes.empty());
}

}  // namespace PERFGATE_TEST_FILE

}  // namespace perfgate
