#pragma once
// Told about each state as soon as the nvbench fast reader has it, so that work on the
// states can begin before the file is read to its end: `perfgate diff` decides pairs on a
// second core while the compare file is still being parsed (diff/early_decisions.hpp).
#include <cstddef>

namespace perfgate::ingest {

struct ResultState;

class StateListener {
 public:
  virtual ~StateListener() = default;
  /// `state`, the index-th of the file, is complete. It stays where it is, unchanged,
  /// until states_moving() or abandoned(); after a successful read it stays in the
  /// returned ResultFile.
  virtual void state_read(const ResultState& state, std::size_t index) = 0;
  /// The states told about so far are about to move (their vector grows): returns once
  /// nothing uses them any more.
  virtual void states_moving() = 0;
  /// The reader gave up and the states told about are gone (the strict reader reads the
  /// file again): returns once nothing uses them any more.
  virtual void abandoned() = 0;
};

}  // namespace perfgate::ingest
