// Example instrumented with perfgate-probe: every frame is one measured iteration (a Run)
// with two top-level regions, decode (which holds a nested region) and render. Under
// `perfgate run` the probe writes its report to PERFGATE_PROBE_OUT and the top-level
// regions become the component metrics decode and render; `perfgate profile` shows the
// report as Markdown. Work outside the two regions (the frame checksum) is the residual.
#include <perfgate/probe.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

std::vector<std::uint64_t> decode(std::size_t pixels, std::uint64_t seed) {
  PERFGATE_REGION("decode");
  std::vector<std::uint64_t> frame(pixels);
  {
    PERFGATE_REGION("entropy");
    for (std::size_t i = 0; i < pixels; ++i) frame[i] = mix(seed + i);
  }
  for (std::size_t i = 1; i < pixels; ++i) frame[i] += frame[i - 1] >> 7;
  return frame;
}

std::uint64_t render(const std::vector<std::uint64_t>& frame) {
  PERFGATE_REGION("render");
  std::uint64_t shade = 0;
  for (int pass = 0; pass < 3; ++pass) {
    for (const std::uint64_t pixel : frame) shade = mix(shade ^ pixel);
  }
  return shade;
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::size_t pixels = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 200000;
  std::uint64_t checksum = 0;
  for (int i = 0; i < frames; ++i) {
    perfgate::probe::Run run;
    const std::vector<std::uint64_t> frame = decode(pixels, static_cast<std::uint64_t>(i));
    checksum ^= render(frame);
    for (const std::uint64_t pixel : frame) checksum += pixel & 1;  // residual: in no region
  }
  std::printf("%d frames, checksum %llx\n", frames, static_cast<unsigned long long>(checksum));
  return 0;
}
