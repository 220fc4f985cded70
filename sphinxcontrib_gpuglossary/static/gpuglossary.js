/* sphinxcontrib-gpuglossary */
