module pulumi-krcloud/go/codegen/schemafile

go 1.25.11
