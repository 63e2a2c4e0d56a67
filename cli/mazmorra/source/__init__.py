"""Located input: YAML read safely into values that remember their file, line and column
(`yamlsafe`, `yamlnodes`), data checked against a model with every error located (`schemas`), and
the words a designer reads for what the schema library says (`wording`)."""
