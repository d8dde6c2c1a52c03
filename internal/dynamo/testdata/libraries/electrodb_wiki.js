// ElectroDB's own keys where earlier tables did not reach: a page's
// revisions under its model's version ($page_1#rev_0 the current copy,
// $page_1#rev_1…5), and a clustered collection on gsi3 (an employee's
// $assignments#employee_1 first, then its tasks by status and due time:
// $assignments#status_open#due_<iso, lower case>#task_<id>#task_1).
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const Page = new Entity({model: {entity: 'page', version: '1', service: 'wiki'},
  attributes: {pageId: {type: 'string'}, rev: {type: 'number'}, title: {type: 'string'}},
  indexes: {byPage: {pk: {field: 'pk', composite: ['pageId']}, sk: {field: 'sk', composite: ['rev']}}}}, {table, client})
const Employee = new Entity({model: {entity: 'employee', version: '1', service: 'taskapp'},
  attributes: {employee: {type: 'string'}, name: {type: 'string'}},
  indexes: {byId: {pk: {field: 'pk', composite: ['employee']}, sk: {field: 'sk', composite: []}},
    assigned: {index: 'gsi3', collection: 'assignments', type: 'clustered', pk: {field: 'gsi3pk', composite: ['employee']}, sk: {field: 'gsi3sk', composite: []}}}}, {table, client})
const Task = new Entity({model: {entity: 'task', version: '1', service: 'taskapp'},
  attributes: {task: {type: 'string'}, employee: {type: 'string'}, status: {type: ['open', 'closed']}, due: {type: 'string'}},
  indexes: {byTask: {pk: {field: 'pk', composite: ['task']}, sk: {field: 'sk', composite: []}},
    assigned: {index: 'gsi3', collection: 'assignments', type: 'clustered', pk: {field: 'gsi3pk', composite: ['employee']}, sk: {field: 'gsi3sk', composite: ['status', 'due', 'task']}}}}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk', 'gsi3pk', 'gsi3sk'].map(n => ({AttributeName: n, AttributeType: 'S'})),
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}],
    GlobalSecondaryIndexes: [{IndexName: 'gsi3', KeySchema: [{AttributeName: 'gsi3pk', KeyType: 'HASH'}, {AttributeName: 'gsi3sk', KeyType: 'RANGE'}], Projection: {ProjectionType: 'ALL'}}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  // Revisions 1…5, then the current copy, rev 0, as the newest says.
  for (let r = 1; r <= 5; r++) await Page.put({pageId: 'p1', rev: r, title: 'rev' + r}).go()
  await Page.put({pageId: 'p1', rev: 0, title: 'rev5'}).go()
  await Employee.put({employee: 'e0', name: 'Ada'}).go()
  // Fifteen open tasks, one every 93 hours from 2020-09-01 (7 in 2020-10).
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 15; i++) await Task.put({task: 't' + String(i).padStart(3, '0'), employee: 'e0', status: 'open', due: new Date(start + i * 93 * 3600e3).toISOString()}).go()
})().catch(e => { console.error(e); process.exit(1) })
