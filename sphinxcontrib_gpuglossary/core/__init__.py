"""The data core: the glossary as data, read, checked, looked up, collated,
localized and exported, without Sphinx. The command line and the Sphinx layer
both stand on it."""
