import pulumi
import pulumi_krcloud as krcloud

report_link_var = krcloud.objectstorage.get_temp_url(bucket="shared-assets",
    key="reports/latest.csv",
    expires_in=86400)
pulumi.export("reportLink", report_link_var.url)
