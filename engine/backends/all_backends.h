// Every backend this build has, registered with an Engine in one place (the CLI and the GUI both
// call it). The Engine itself starts with cpu; the others are added here, highest priority first.
#pragma once

#include "runtime/engine.h"

namespace tfjsi::backends {

// Adds gl (and xnnpack, when built) to `engine`. A backend that cannot start here is still
// registered: it reports itself unavailable with the reason, and auto-selection passes it by.
void add_all_backends(runtime::Engine& engine);

}  // namespace tfjsi::backends
