// A public static website in krcloud object storage: a bucket and its index page.
package krcloud.staticsite;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.krcloud.objectstorage.Bucket;
import com.pulumi.krcloud.objectstorage.BucketArgs;
import com.pulumi.krcloud.objectstorage.BucketObject;
import com.pulumi.krcloud.objectstorage.BucketObjectArgs;
import com.pulumi.krcloud.objectstorage.enums.BucketAclPublic;
import com.pulumi.krcloud.objectstorage.inputs.BucketAclArgs;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var message = ctx.config().get("message").orElse("<h1>Hello from Java and krcloud</h1>");

        // Auto-named from the logical name (site-<random suffix>).
        var site = new Bucket("site", BucketArgs.builder()
            .acl(BucketAclArgs.builder().public_(BucketAclPublic.Readonly).build())
            .metadata(Map.of("purpose", "java-static-site"))
            .forceDestroy(true)
            .build());

        var index = new BucketObject("index", BucketObjectArgs.builder()
            .bucket(site.name())
            .key("index.html")
            .content(message)
            .contentType("text/html")
            .build());

        ctx.export("bucketName", site.name());
        ctx.export("url", index.url());
    }
}
