module pulumi-krcloud/tools/schemafile

go 1.25.11
