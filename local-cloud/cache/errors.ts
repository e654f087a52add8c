/** One class per error code the cache service answers besides the core's (the body is the local cloud's JSON `{code, message, requestId}`). */
import { apiErrorCode } from "../core/errors";

export const InvalidParameterGroup = apiErrorCode(400, "InvalidParameterGroup");
export const DefaultParameterGroup = apiErrorCode(400, "DefaultParameterGroup");
export const InvalidParameterValue = apiErrorCode(400, "InvalidParameterValue");
export const NotACluster = apiErrorCode(400, "NotACluster");
export const NotAnInstanceSet = apiErrorCode(400, "NotAnInstanceSet");
export const ShardLimit = apiErrorCode(400, "ShardLimit");
export const LastShard = apiErrorCode(400, "LastShard");
export const ReplicaLimit = apiErrorCode(400, "ReplicaLimit");
export const NoReplica = apiErrorCode(400, "NoReplica");
export const PrimaryNode = apiErrorCode(400, "PrimaryNode");
export const BackupPolicy = apiErrorCode(400, "BackupPolicy");
export const InvalidInstanceState = apiErrorCode(400, "InvalidInstanceState");
export const InvalidState = apiErrorCode(400, "InvalidState");
export const HighAvailabilityEnabled = apiErrorCode(400, "HighAvailabilityEnabled");
export const ParameterGroupNotFound = apiErrorCode(404, "ParameterGroupNotFound");
export const ClusterNotFound = apiErrorCode(404, "ClusterNotFound");
export const ShardNotFound = apiErrorCode(404, "ShardNotFound");
export const NodeNotFound = apiErrorCode(404, "NodeNotFound");
export const InstanceNotFound = apiErrorCode(404, "InstanceNotFound");
export const DuplicateName = apiErrorCode(409, "DuplicateName");
export const ParameterGroupInUse = apiErrorCode(409, "ParameterGroupInUse");
export const RollbackUnavailable = apiErrorCode(409, "RollbackUnavailable");
export const NothingToRetry = apiErrorCode(409, "NothingToRetry");
export const ShardDeleting = apiErrorCode(409, "ShardDeleting");
/** 422: syntactically valid, but the service cannot do it (an unknown version or flavor, a mismatched group or backup). */
export const Unprocessable = apiErrorCode(422, "Unprocessable");
export const BackupNotFound = apiErrorCode(404, "BackupNotFound");
