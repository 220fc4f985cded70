"""Linking: finding the glossary's terms in running text, deciding whether each is the
term, and marking it, for auto-linking in a build and ``gpuglossary scan`` alike.

- :mod:`.matcher`: terms in a text, whole words, longest spelling first (no Sphinx);
- :mod:`.placement`: where a parser's text stands in its source file (no Sphinx);
- :mod:`.notebooks`: a notebook's Markdown cells as a page, and where each character
  stands in its JSON (no Sphinx);
- :mod:`.autolink`: the build's transform that links plain text;
- :mod:`.project`, :mod:`.record`, :mod:`.scan`: ``gpuglossary scan``, a project read
  by Sphinx, each page recorded after parsing and each mark proven by reading it again.

Nothing is imported here: the command line imports Sphinx only when a scan runs.
"""
