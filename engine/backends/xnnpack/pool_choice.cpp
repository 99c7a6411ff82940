#include "backends/xnnpack/pool_choice.h"

namespace tfjsi::xnnpack {

PoolUse pool_use(double work, std::size_t threads) {
  return threads <= 1 || work < kTrialWork ? PoolUse::CallingThread : PoolUse::Trial;
}

bool trial_picks_pool(std::span<const double> calling_ms, std::span<const double> pooled_ms) {
  if (calling_ms.size() != pooled_ms.size()) return false;
  std::size_t wins = 0;
  for (std::size_t k = 0; k < calling_ms.size(); ++k)
    wins += pool_won(calling_ms[k], pooled_ms[k]) ? 1 : 0;
  return wins >= kTrialWins;
}

}  // namespace tfjsi::xnnpack
