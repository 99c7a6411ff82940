// Text that came from a model (node, input, output, op and weight names, generatedBy, metadata)
// or from an error message holding such text, made safe to print to a terminal or show in a
// dialog: control characters cannot move the cursor, retitle the window, ring the bell or forge a
// line (issue #25). Escaped as \xNN: the C0 controls and DEL, the C1 controls (U+0080-U+009F,
// which terminals honour as CSI and the like), and bytes that are not valid UTF-8. Other UTF-8
// (non-ASCII names) is kept as it is.
#pragma once

#include <string>
#include <string_view>

namespace tfjsi {

// Every control character escaped, newline and tab too: for one name or one message.
std::string terminal_safe(std::string_view text);
// The same, but newlines and tabs kept: for a whole block of output whose lines are ours.
std::string terminal_safe_lines(std::string_view text);

}  // namespace tfjsi
