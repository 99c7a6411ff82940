// The errors that cross module edges. Each maps to one tfjsi exit code, and each message names
// what the user has to look at (a file, a weight, a node, an op) and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace tfjsi {

// A bad model or a bad input: exit code 1.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A backend cannot run a node as given, through no fault of the model: an op, a form or a size
// that backend lacks (a GL texture limit, a fused op it has no kernel for). The executor runs the
// node on cpu instead; where no backend can, it reaches the user as the ModelError it also is.
class BackendLimit : public ModelError {
 public:
  using ModelError::ModelError;
};

// A wrong command line: exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The backend asked for cannot start here: exit code 3.
class BackendUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The run was stopped on purpose: an observer threw it (the GUI's Cancel, also from a progress
// report while gl builds its programs). Nothing failed, so no backend falls back to cpu for it.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace tfjsi
