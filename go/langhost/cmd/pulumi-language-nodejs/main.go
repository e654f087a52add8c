// Command pulumi-language-nodejs is the krcloud build's nodejs language host for the Pulumi CLI: see
// internal/langhost for why it is not upstream's, and internal/langhost/languages.go for how it runs
// a program.
package main

import "pulumi-krcloud/go/langhost/internal/langhost"

func main() { langhost.Main(langhost.NodeJS) }
