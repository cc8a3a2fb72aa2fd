{{- define "gw-operator.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gw-operator.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "gw-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gw-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "gw-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "gw-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: gw
{{- end -}}

{{- define "gw-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gw-operator.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The rules the operator needs, and nothing more: see README "RBAC". */}}
{{- define "gw-operator.rules" -}}
- apiGroups: [gw.dev]
  resources: [gateways, providerkeys, routingconfigs, usercaps, servicekeys, desktoppolicies]
  verbs: [get, list, watch, update, patch]
- apiGroups: [gw.dev]
  resources: [gateways/status, providerkeys/status, routingconfigs/status, usercaps/status, servicekeys/status, desktoppolicies/status]
  verbs: [get, update, patch]
- apiGroups: [gw.dev]
  resources: [gateways/finalizers, providerkeys/finalizers, routingconfigs/finalizers, usercaps/finalizers, servicekeys/finalizers, desktoppolicies/finalizers]
  verbs: [update]
- apiGroups: [""]
  resources: [secrets, services]
  verbs: [get, list, watch, create, update, patch]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch, create, update, patch]
- apiGroups: [policy]
  resources: [poddisruptionbudgets]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [get, list, watch, create, update, patch, delete]
# A Gateway's metrics.serviceMonitor (Prometheus Operator); unused where that CRD is not installed.
- apiGroups: [monitoring.coreos.com]
  resources: [servicemonitors]
  verbs: [get, list, watch, create, update, patch, delete]
{{- end -}}
