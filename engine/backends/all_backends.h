// Every backend this build has, registered with an Engine in one place (the CLI and the GUI both
// call it), and the only way runtime/ reaches a backend. The Engine itself starts with the
// reference backend (cpu) made here; the others are added here, highest priority first.
#pragma once

#include <memory>

#include "runtime/engine.h"

namespace tfjsi::backends {

// The cpu backend, which every Engine holds from its start as the one every node can fall back
// to (Engine::reference_backend).
std::unique_ptr<runtime::Backend> make_reference_backend();

// Adds gl (and xnnpack, when built) to `engine`. A backend that cannot start here is still
// registered: it reports itself unavailable with the reason, and auto-selection passes it by.
void add_all_backends(runtime::Engine& engine);

}  // namespace tfjsi::backends
