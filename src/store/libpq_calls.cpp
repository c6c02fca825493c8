// libpq's functions, as perfgate calls them, reached through dlopen on first use
// (model/loaded_library.hpp says why). Each forwards to the same function of libpq.so.5;
// the compiler checks every signature against libpq-fe.h, which declares them all.
#include <libpq-fe.h>

#include "model/loaded_library.hpp"
#include "perfgate_build_paths.hpp"

namespace {

#define PERFGATE_LIBPQ_FUNCTIONS(X) \
  X(PQclear)                        \
  X(PQconnectdb)                    \
  X(PQerrorMessage)                 \
  X(PQexec)                         \
  X(PQexecPrepared)                 \
  X(PQfinish)                       \
  X(PQgetResult)                    \
  X(PQgetisnull)                    \
  X(PQgetlength)                    \
  X(PQgetvalue)                     \
  X(PQntuples)                      \
  X(PQprepare)                      \
  X(PQputCopyData)                  \
  X(PQputCopyEnd)                   \
  X(PQreset)                        \
  X(PQresultErrorField)             \
  X(PQresultStatus)                 \
  X(PQsetNoticeProcessor)           \
  X(PQstatus)

PERFGATE_LAZY_LIBRARY(PERFGATE_LIBPQ_FUNCTIONS, PERFGATE_LIBPQ_SONAME, "postgresql:// stores",
                      "Install Debian's libpq5 package.")

}  // namespace

extern "C" {

void PQclear(PGresult* res) {
  calls().PQclear(res);
}
PGconn* PQconnectdb(const char* conninfo) {
  return calls().PQconnectdb(conninfo);
}
char* PQerrorMessage(const PGconn* conn) {
  return calls().PQerrorMessage(conn);
}
PGresult* PQexec(PGconn* conn, const char* query) {
  return calls().PQexec(conn, query);
}
PGresult* PQexecPrepared(PGconn* conn, const char* stmtName, int nParams,
                         const char* const* paramValues, const int* paramLengths,
                         const int* paramFormats, int resultFormat) {
  return calls().PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats,
                                resultFormat);
}
void PQfinish(PGconn* conn) {
  calls().PQfinish(conn);
}
PGresult* PQgetResult(PGconn* conn) {
  return calls().PQgetResult(conn);
}
int PQgetisnull(const PGresult* res, int tup_num, int field_num) {
  return calls().PQgetisnull(res, tup_num, field_num);
}
int PQgetlength(const PGresult* res, int tup_num, int field_num) {
  return calls().PQgetlength(res, tup_num, field_num);
}
char* PQgetvalue(const PGresult* res, int tup_num, int field_num) {
  return calls().PQgetvalue(res, tup_num, field_num);
}
int PQntuples(const PGresult* res) {
  return calls().PQntuples(res);
}
PGresult* PQprepare(PGconn* conn, const char* stmtName, const char* query, int nParams,
                    const Oid* paramTypes) {
  return calls().PQprepare(conn, stmtName, query, nParams, paramTypes);
}
int PQputCopyData(PGconn* conn, const char* buffer, int nbytes) {
  return calls().PQputCopyData(conn, buffer, nbytes);
}
int PQputCopyEnd(PGconn* conn, const char* errormsg) {
  return calls().PQputCopyEnd(conn, errormsg);
}
void PQreset(PGconn* conn) {
  calls().PQreset(conn);
}
char* PQresultErrorField(const PGresult* res, int fieldcode) {
  return calls().PQresultErrorField(res, fieldcode);
}
ExecStatusType PQresultStatus(const PGresult* res) {
  return calls().PQresultStatus(res);
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn* conn, PQnoticeProcessor proc, void* arg) {
  return calls().PQsetNoticeProcessor(conn, proc, arg);
}
ConnStatusType PQstatus(const PGconn* conn) {
  return calls().PQstatus(conn);
}

}  // extern "C"
